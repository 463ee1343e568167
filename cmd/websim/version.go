package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/urfave/cli/v2"
)

// version is websim's version; release builds may set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print websim's version and the template versions it reads",
		Action: func(c *cli.Context) error {
			fmt.Fprintf(c.App.Writer, "websim %s\n", version)
			fmt.Fprintf(c.App.Writer, "program: %s\n", shortID(buildID()))
			fmt.Fprintf(c.App.Writer, "reads workbook template versions: %s\n", templateVersions())
			return nil
		},
	}
}

// buildID identifies this program: the SHA-256 of its executable file, so
// that two builds of the same version (a development version stays
// "0.1.0-dev" from commit to commit) are told apart. Shards record it and
// merge refuses parts of different programs. It is "" when the executable
// cannot be read. Computed once, on first use (hashing the file takes a
// few tens of milliseconds).
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// shortID is a build identity as websim version prints it.
func shortID(id string) string {
	if id == "" {
		return "unknown (the executable could not be read)"
	}
	return "SHA-256 " + id[:16] + "…"
}
