package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/workbook/wbtest"
)

func TestValidateValid(t *testing.T) {
	dir := t.TempDir()
	wbtest.Valid().Write(t, dir)
	before := validateSnapshot(t, dir)
	var out, errb bytes.Buffer
	if code := run([]string{"websim", "validate", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	if want := dir + ": valid (2 scenarios × 2 loads)\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr %q", errb.String())
	}
	validateUnchanged(t, dir, before)
}

func TestValidateBroken(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "Start", "B2", "Expo(3")
	m.Set(t, "ProcData.xlsx", "Start", "D2", "GWy")
	m.Set(t, "SvcData.xlsx", "ServerInfo", "F1", "Colour")
	m.Write(t, dir)
	before := validateSnapshot(t, dir)
	var out, errb bytes.Buffer
	// Flags may follow MODEL; validate has none, so this is just MODEL.
	if code := run([]string{"websim", "validate", dir}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2; stderr:\n%s", code, errb.String())
	}
	wantErr := `warning: SvcData.xlsx!ServerInfo!F1: unknown column "Colour" left alone
ProcData.xlsx!Start!B2: distribution "Expo(3" at column 7: missing ")"; expected "Expo(3)"
ProcData.xlsx!Start!D2: unknown server "GWy"; did you mean "GWay"?; expected App or a server of SvcData.xlsx!ServerInfo (GWay, MTC)
`
	if errb.String() != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", errb.String(), wantErr)
	}
	if want := dir + ": 2 problems, 1 warning\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	validateUnchanged(t, dir, before)
}

func TestValidateMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	var out, errb bytes.Buffer
	if code := run([]string{"websim", "validate", dir}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "no such model folder") {
		t.Errorf("stderr %q", errb.String())
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("validate created %s", dir)
	}
}

func validateSnapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

func validateUnchanged(t *testing.T, dir string, before map[string][]byte) {
	t.Helper()
	after := validateSnapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("files before %d, after %d", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
}

// An expression's problem reaches the user with the caret that the rules
// compiler computed, under the column it names.
func TestValidateShowsTheCaret(t *testing.T) {
	dir := t.TempDir()
	m := wbtest.Valid()
	m.Set(t, "ProcData.xlsx", "ASumSvc", "H3", "Pages > 2 and Pgaes < 9")
	m.Write(t, dir)
	var out, errb bytes.Buffer
	if code := run([]string{"websim", "validate", dir}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2; stderr:\n%s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ProcData.xlsx!ASumSvc!H3: ") || !strings.Contains(lines[0], "at column 15") {
		t.Fatalf("stderr:\n%s\nwant the problem, then the expression and its caret", errb.String())
	}
	if want := "    Pages > 2 and Pgaes < 9"; lines[1] != want {
		t.Errorf("caret source line %q, want %q", lines[1], want)
	}
	if want := "    " + strings.Repeat(" ", 14) + "^"; lines[2] != want {
		t.Errorf("caret line %q, want %q", lines[2], want)
	}
}
