package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runNewCLI runs websim in-process and returns its exit code and output.
func runNewCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"websim"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestNewCreatesTheModel(t *testing.T) {
	for _, tc := range []struct {
		args  func(dir string) []string
		files []string
	}{
		{func(d string) []string { return []string{"new", d, "--template", "asum"} },
			[]string{"SvcData.xlsx", "ProcData.xlsx", "run.bat", "run.command", "run.sh"}},
		{func(d string) []string { return []string{"new", "--template", "mmc", d} },
			[]string{"SvcData.xlsx", "ProcData.xlsx", "run.sh"}},
		{func(d string) []string { return []string{"new", d, "-t", "LoadBalancer"} },
			[]string{"Parameters.xlsx", "run.bat", "run.command", "run.sh"}},
		{func(d string) []string { return []string{"new", d} }, // blank by default
			[]string{"SvcData.xlsx", "ProcData.xlsx"}},
	} {
		dir := filepath.Join(t.TempDir(), "mymodel")
		args := tc.args(dir)
		code, out, errs := runNewCLI(args...)
		if code != 0 {
			t.Fatalf("websim %q: exit %d, stderr %s", args, code, errs)
		}
		if !strings.Contains(out, "Created "+dir) || !strings.Contains(out, "Next:") {
			t.Errorf("websim %q printed %q", args, out)
		}
		for _, f := range tc.files {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("websim %q: %v", args, err)
			}
		}
	}
}

func TestNewRefuses(t *testing.T) {
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "mine.xlsx"), []byte("x"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new", filepath.Join(t.TempDir(), "m"), "--template", "asm"}, `unknown template "asm"; did you mean "asum"?`},
		{[]string{"new", filepath.Join(t.TempDir(), "m"), "--template", "nothing"}, "the templates are blank, asum, mmc, loadbalancer"},
		{[]string{"new", full, "--template", "asum"}, "not empty"},
		{[]string{"new"}, "new needs one folder"},
	} {
		code, _, errs := runNewCLI(tc.args...)
		if code != exitInvalid || !strings.Contains(errs, tc.want) {
			t.Errorf("websim %q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(full, "SvcData.xlsx")); err == nil {
		t.Error("new wrote into a non-empty folder")
	}
}

func TestVersionListsTemplateVersions(t *testing.T) {
	code, out, _ := runNewCLI("version")
	if code != 0 || !strings.Contains(out, "template versions: 1") {
		t.Errorf("websim version: exit %d, %q", code, out)
	}
}

// newFakeWebsim writes a websim script into dir that records its arguments in
// dir/args and exits with status.
func newFakeWebsim(t *testing.T, dir, status string) {
	t.Helper()
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"" + filepath.Join(dir, "args") + "\"\necho progress 100%\nexit " + status + "\n"
	if err := os.WriteFile(filepath.Join(dir, "websim"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// newRunScript runs a run script with bin first on PATH and no terminal.
func newRunScript(t *testing.T, script, bin string) (string, int) {
	t.Helper()
	cmd := exec.Command("sh", script)
	cmd.Dir = t.TempDir() // the script must find its own folder wherever it is run from
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "WEBSIM_NO_PAUSE=1")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestRunScript(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("run.sh needs a POSIX shell")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	model := filepath.Join(t.TempDir(), "my model") // a space, as users name folders
	if code, _, errs := runNewCLI("new", model, "--template", "asum"); code != 0 {
		t.Fatal(errs)
	}
	bin := t.TempDir()
	readArgs := func(dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, "args"))
		if err != nil {
			t.Fatalf("websim was not run: %v", err)
		}
		return string(data)
	}

	newFakeWebsim(t, bin, "0")
	out, code := newRunScript(t, filepath.Join(model, "run.sh"), bin)
	if code != 0 {
		t.Fatalf("run.sh: exit %d\n%s", code, out)
	}
	if got, want := readArgs(bin), "run\n"+model+"\n"; got != want {
		t.Errorf("run.sh ran websim with %q, want %q", got, want)
	}
	if !strings.Contains(out, "progress 100%") || !strings.Contains(out, "The results are in "+model+"/OutPut.xlsx") {
		t.Errorf("run.sh printed:\n%s", out)
	}

	// Exit 2 is a model to fix; exit 1 is not (a workbook open in Excel).
	newFakeWebsim(t, bin, "2")
	out, code = newRunScript(t, filepath.Join(model, "run.sh"), bin)
	if code != 2 || !strings.Contains(out, "websim found problems in the model (exit status 2)") || !strings.Contains(out, "File!Sheet!Cell") {
		t.Errorf("run.sh with invalid input: exit %d\n%s", code, out)
	}
	newFakeWebsim(t, bin, "1")
	out, code = newRunScript(t, filepath.Join(model, "run.sh"), bin)
	if code != 1 || !strings.Contains(out, "websim could not finish (exit status 1)") || strings.Contains(out, "File!Sheet!Cell") {
		t.Errorf("run.sh with a failure: exit %d\n%s", code, out)
	}

	// A websim next to the script comes first.
	newFakeWebsim(t, model, "0")
	os.Remove(filepath.Join(bin, "args"))
	if _, code := newRunScript(t, filepath.Join(model, "run.sh"), bin); code != 0 {
		t.Errorf("run.sh with websim beside it: exit %d", code)
	}
	readArgs(model)
	if _, err := os.Stat(filepath.Join(bin, "args")); err == nil {
		t.Error("run.sh ran the websim on PATH, not the one beside it")
	}
	os.Remove(filepath.Join(model, "websim"))

	// Not found at all: a message, and a failure status.
	empty := t.TempDir()
	cmd := exec.Command("/bin/sh", filepath.Join(model, "run.sh"))
	cmd.Env = []string{"PATH=" + empty, "WEBSIM_NO_PAUSE=1"}
	outb, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(outb), "websim was not found") {
		t.Errorf("run.sh without websim: %v\n%s", err, outb)
	}
	// Beside it but not executable (copied from mail or a share): said so,
	// with the command that mends it.
	if err := os.WriteFile(filepath.Join(model, "websim"), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("/bin/sh", filepath.Join(model, "run.sh"))
	cmd.Env = []string{"PATH=" + empty, "WEBSIM_NO_PAUSE=1"}
	outb, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(outb), "may not be run") || !strings.Contains(string(outb), `chmod +x "`+model+`/websim"`) {
		t.Errorf("run.sh with a websim that may not be run: %v\n%s", err, outb)
	}
	os.Remove(filepath.Join(model, "websim"))

	// The loadbalancer folder runs websim lb on its Parameters.xlsx.
	lbDir := filepath.Join(t.TempDir(), "lb")
	if code, _, errs := runNewCLI("new", lbDir, "--template", "loadbalancer"); code != 0 {
		t.Fatal(errs)
	}
	newFakeWebsim(t, bin, "0")
	if out, code := newRunScript(t, filepath.Join(lbDir, "run.sh"), bin); code != 0 {
		t.Fatalf("loadbalancer run.sh: exit %d\n%s", code, out)
	}
	if got, want := readArgs(bin), "lb\n"+filepath.Join(lbDir, "Parameters.xlsx")+"\n"; got != want {
		t.Errorf("loadbalancer run.sh ran websim with %q, want %q", got, want)
	}
}

func TestRunScriptsContent(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m")
	if code, _, errs := runNewCLI("new", model, "--template", "mmc"); code != 0 {
		t.Fatal(errs)
	}
	sh, _ := os.ReadFile(filepath.Join(model, "run.sh"))
	command, _ := os.ReadFile(filepath.Join(model, "run.command"))
	if !bytes.Equal(sh, command) {
		t.Error("run.command differs from run.sh")
	}
	if fi, err := os.Stat(filepath.Join(model, "run.command")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.command is not executable: %v", err)
	}
	bat, err := os.ReadFile(filepath.Join(model, "run.bat"))
	if err != nil {
		t.Fatal(err)
	}
	b := string(bat)
	if strings.Count(b, "\r\n") != strings.Count(b, "\n") {
		t.Error("run.bat lines must end in CRLF")
	}
	for _, want := range []string{
		"@echo off",
		`set "HERE=%~dp0"`,        // its own folder
		`%HERE%\websim.exe`,       // websim beside it first,
		`%%~$PATH:W`,              // then on PATH
		`"%WEBSIM%" run "%HERE%"`, // runs the model folder
		"OutPut.xlsx",             // says where the results are
		"pause",                   // keeps the window open
		"exit /b %STATUS%",        // and passes the failure on
	} {
		if !strings.Contains(b, want) {
			t.Errorf("run.bat lacks %q", want)
		}
	}
}

// A folder that new or import cannot make is invalid input (exit 2),
// said plainly: no name, a file of that name, a path through a file.
func TestFolderThatCannotBeMade(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "m.yaml")
	if code, _, errs := runCLI(t, "export", "../../samples/mmc", "-o", text); code != 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "", "--template", "mmc"}, "the folder name is empty"},
		{[]string{"new", file, "--template", "mmc"}, file + " is a file, not a folder"},
		{[]string{"import", text, file}, file + " is a file, not a folder"},
		{[]string{"import", text, filepath.Join(file, "model")}, "cannot be made: " + file + " is a file, not a folder"},
	} {
		if code, _, errs := runCLI(t, tc.args...); code != exitInvalid || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, %s; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}
