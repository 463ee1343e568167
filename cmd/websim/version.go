package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
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

// buildID identifies this program, finer than its version (a development
// version stays "0.1.0-dev" from commit to commit), so that a merge can
// refuse shards run by different programs. A build stamped with a clean
// version-control revision is told by its build information (the
// revision, the Go toolchain, the build settings and every module's
// checksum), which does not depend on the folder it was built in:
// "git-<revision>-<hash of the build information>", when every module it
// took is pinned by a checksum. Any other build (modified sources, a module
// from a local folder, or no stamp: -buildvcs=false, a copy without .git) is
// told by the SHA-256 of its executable, "exe-<hash>", which also holds the
// folder of its sources unless it was built with -trimpath. "" when neither
// can be read. Computed once, on first use.
var buildID = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, st := range bi.Settings {
			switch st.Key {
			case "vcs.revision":
				rev = st.Value
			case "vcs.modified":
				modified = st.Value
			}
		}
		if rev != "" && modified == "false" && allSummed(bi.Deps) {
			sum := sha256.Sum256([]byte(bi.String()))
			return "git-" + rev[:min(12, len(rev))] + "-" + hex.EncodeToString(sum[:4])
		}
	}
	// The running executable: /proc/self/exe on Linux is the file that
	// runs even if the path was replaced since.
	var f *os.File
	err := os.ErrNotExist
	if runtime.GOOS == "linux" {
		f, err = os.Open("/proc/self/exe")
	}
	if err != nil {
		exe, eerr := os.Executable()
		if eerr != nil {
			return ""
		}
		if f, err = os.Open(exe); err != nil {
			return ""
		}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "exe-" + hex.EncodeToString(h.Sum(nil))[:16]
})

// allSummed reports whether every module a build took is pinned by its
// checksum: a module taken from a local folder (a go.work "use", a
// "replace => ../dir") has none, and its edits would not show in the
// build information.
func allSummed(deps []*debug.Module) bool {
	for _, d := range deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Sum == "" {
			return false
		}
	}
	return true
}

// shortID is a build identity as websim version prints it.
func shortID(id string) string {
	switch {
	case id == "":
		return "unknown (neither its build information nor its executable could be read)"
	case strings.HasPrefix(id, "git-"):
		return id + " (a clean build of that commit)"
	}
	return id + " (the SHA-256 of this executable: a build of modified or unstamped sources)"
}
