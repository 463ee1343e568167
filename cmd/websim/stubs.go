package main

import "errors"

// errNotYet is returned by commands still being built.
var errNotYet = errors.New("this command is not built yet")
