package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/websim/websim/internal/xlsx"
)

// TestMain lets the test binary stand in for websim when a child process
// (git's textconv) runs it with WEBSIM_TEST_AS_MAIN set.
func TestMain(m *testing.M) {
	if os.Getenv("WEBSIM_TEST_AS_MAIN") == "1" {
		os.Exit(run(os.Args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestExportImportRoundTrip(t *testing.T) {
	dir := copyModel(t, "asum")
	text := filepath.Join(t.TempDir(), "asum.yaml")
	// Flags after MODEL work too.
	if code, _, errs := runCLI(t, "export", dir, "--out", text); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	code, stdout, errs := runCLI(t, "export", dir)
	want, _ := os.ReadFile(text)
	if code != 0 || stdout != string(want) {
		t.Fatalf("export to stdout: exit %d, %s; differs from --out: %v", code, errs, stdout != string(want))
	}
	into := filepath.Join(t.TempDir(), "m")
	code, stdout, errs = runCLI(t, "import", text, into)
	if code != 0 || !strings.Contains(stdout, "Wrote "+filepath.Join(into, "SvcData.xlsx")) {
		t.Fatalf("import: exit %d\n%s%s", code, stdout, errs)
	}
	if code, _, errs := runCLI(t, "validate", into); code != 0 {
		t.Errorf("the imported model does not validate: %s", errs)
	}
	if _, got, _ := runCLI(t, "export", into); got != string(want) {
		t.Error("export(import(text)) is not the text")
	}
	// A single workbook exports alone.
	_, one, _ := runCLI(t, "export", filepath.Join(into, "ProcData.xlsx"))
	if !strings.HasPrefix(one, "ProcData.xlsx:\n") || !strings.HasSuffix(string(want), one) {
		t.Errorf("export of ProcData.xlsx alone is not the ProcData part of the model's text:\n%.200s", one)
	}
	// The same model: diff says nothing, exit 0, folder against text.
	if code, out, errs := runCLI(t, "diff", dir, text); code != 0 || out != "" {
		t.Errorf("diff of a model and its text: exit %d\n%s%s", code, out, errs)
	}
}

func TestImportRefusesToOverwrite(t *testing.T) {
	dir := copyModel(t, "mmc")
	text := filepath.Join(t.TempDir(), "mmc.yaml")
	if code, _, errs := runCLI(t, "export", dir, "-o", text); code != 0 {
		t.Fatal(errs)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx"))
	code, _, errs := runCLI(t, "import", text, dir)
	if code != exitInvalid || !strings.Contains(errs, "--force") {
		t.Errorf("import over a model: exit %d, %s; want 2 and a word on --force", code, errs)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "SvcData.xlsx")); string(after) != string(before) {
		t.Error("the refused import changed SvcData.xlsx")
	}
	if code, _, errs := runCLI(t, "import", "--force", text, dir); code != 0 {
		t.Errorf("import --force: exit %d, %s", code, errs)
	}
}

func TestImportOfBadTextIsLocated(t *testing.T) {
	text := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(text, []byte("SvcData.xlsx:\n  Settings:\n    - [Name, Value]\n    - Nmae: Seed\n  Bad?:\n    - [A]\n"), 0o644)
	into := filepath.Join(t.TempDir(), "m")
	code, _, errs := runCLI(t, "import", text, into)
	want := text + ":4:7: sheet Settings: unknown column \"Nmae\"; expected a header of the sheet's first row (Name, Value) or a column letter such as (C)\n" +
		text + ":5:3: sheet \"Bad?\": Excel refuses the characters : \\ / ? * [ ] in a sheet name; expected a name without them\n"
	if code != exitInvalid || errs != want {
		t.Errorf("exit %d, stderr\n%s\nwant 2 and\n%s", code, errs, want)
	}
	if _, err := os.Stat(into); err == nil {
		t.Error("a bad text wrote the folder")
	}
}

func TestDiffExitCodes(t *testing.T) {
	a := copyModel(t, "asum")
	text := filepath.Join(t.TempDir(), "asum.yaml")
	if code, _, errs := runCLI(t, "export", a, "--out", text); code != 0 {
		t.Fatal(errs)
	}
	orig, _ := os.ReadFile(text)
	changed := strings.Replace(string(orig), "    - Server: GWay\n      Capacity: 90\n", "    - Server: GWay\n      Capacity: 60\n", 1)
	if changed == string(orig) {
		t.Fatal("the sample has no GWay of capacity 90")
	}
	b := filepath.Join(t.TempDir(), "b.yaml")
	os.WriteFile(b, []byte(changed), 0o644)
	code, out, errs := runCLI(t, "diff", a, b)
	if code != exitFailure || out != "SvcData.xlsx!ServerInfo!B5 (GWay, Capacity): 90 -> 60\n" {
		t.Errorf("diff: exit %d\n%s%s", code, out, errs)
	}
	// An invalid model (a server's capacity as text) is exit 2, with its
	// problems; the difference is still printed.
	invalid := strings.Replace(changed, "Capacity: 60", "Capacity: lots", 1)
	os.WriteFile(b, []byte(invalid), 0o644)
	code, out, errs = runCLI(t, "diff", a, b)
	if code != exitInvalid || !strings.Contains(out, "90 -> lots") || !strings.Contains(errs, b+": SvcData.xlsx!ServerInfo!B5:") {
		t.Errorf("diff with an invalid model: exit %d\n%s%s", code, out, errs)
	}
	// A text that lacks ProcData.xlsx is invalid, as the folder would be.
	svcOnly, _, _ := strings.Cut(string(orig), "ProcData.xlsx:")
	os.WriteFile(b, []byte(svcOnly), 0o644)
	code, _, errs = runCLI(t, "diff", a, b)
	if code != exitInvalid || !strings.Contains(errs, b+": no ProcData.xlsx in it") {
		t.Errorf("diff with a text of SvcData.xlsx only: exit %d\n%s", code, errs)
	}
	// A model that cannot be read at all.
	code, _, errs = runCLI(t, "diff", a, filepath.Join(t.TempDir(), "none"))
	if code != exitInvalid || errs == "" {
		t.Errorf("diff with a missing model: exit %d, %s", code, errs)
	}
	// A damaged workbook is said in the model it is in: each line starts
	// with that model's path, whichever side it is on.
	damaged := copyModel(t, "mmc")
	os.WriteFile(filepath.Join(damaged, "SvcData.xlsx"), []byte("hello"), 0o644)
	for _, args := range [][]string{{a, damaged}, {damaged, a}} {
		code, _, errs = runCLI(t, append([]string{"diff"}, args...)...)
		if code != exitInvalid || !strings.HasPrefix(errs, damaged+": SvcData.xlsx: the file is damaged") || strings.Count(errs, "\n") != 1 {
			t.Errorf("diff %q with a damaged workbook: exit %d\n%s", args, code, errs)
		}
	}
}

// The git recipe of the README: a workbook's change shows in git diff as
// the text's change.
func TestGitDiffShowsTheText(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	env := append(os.Environ(), "WEBSIM_TEST_AS_MAIN=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	gitDo := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	gitDo("init", "-q")
	// The recipe, with the test binary standing in for websim.
	gitDo("config", "diff.websim.textconv", "'"+self+"' export")
	os.WriteFile(filepath.Join(repo, ".gitattributes"), []byte("*.xlsx binary diff=websim\n"), 0o644)
	model := filepath.Join(repo, "model")
	if err := os.MkdirAll(model, 0o755); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(t.TempDir(), "m.yaml")
	if code, _, errs := runCLI(t, "export", copyModel(t, "mmc"), "--out", text); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCLI(t, "import", text, model); code != 0 {
		t.Fatal(errs)
	}
	gitDo("add", ".")
	gitDo("commit", "-q", "-m", "model")
	data, _ := os.ReadFile(text)
	edited := strings.Replace(string(data), "rho0.8: Exp(0.0625)", "rho0.8: Exp(0.07)", 1)
	if edited == string(data) {
		t.Fatal("the mmc sample has no rho0.8 arrivals to edit")
	}
	os.WriteFile(text, []byte(edited), 0o644)
	if code, _, errs := runCLI(t, "import", "--force", text, model); code != 0 {
		t.Fatal(errs)
	}
	out := gitDo("diff", "--", "model/SvcData.xlsx")
	if !strings.Contains(out, "-      rho0.8: Exp(0.0625)\n") || !strings.Contains(out, "+      rho0.8: Exp(0.07)\n") || strings.Contains(out, "Binary files") {
		t.Errorf("git diff does not show the text's change:\n%s", out)
	}
}

// TestSeventeenDigitsRunAsTheirText checks the contract's round trip for a
// number a script or a formula saved with 17 significant digits: the
// model's text keeps Excel's 15, so the simulation must read the
// workbook's number so too, or import(export(M)) would run a different
// model while diff calls the two the same. Here scenario M10's SwitchUtil
// is 0.70000000000000007 (=0.1*7 saves so), which a utilization of
// exactly 140 of 200 units is below, and not below the text's 0.7: the
// Mode cell would fork where the imported model goes in sequence.
func TestSeventeenDigitsRunAsTheirText(t *testing.T) {
	dir := copyModel(t, "asum")
	path := filepath.Join(dir, "SvcData.xlsx")
	f, err := xlsx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.Value("Experiments", "A4"); v != "M10" {
		t.Fatalf("Experiments!A4 is %q, not M10", v)
	}
	f.Close()
	// The spreadsheet library writes 15 digits; a script or Excel's own
	// saved value of a formula writes 17, into the sheet's XML.
	saved := strconv.FormatFloat(math.Nextafter(0.7, 1), 'g', -1, 64)
	replaceInZip(t, path, `<c r="C4"><v>0.7</v></c>`, `<c r="C4"><v>`+saved+`</v></c>`)
	text := filepath.Join(t.TempDir(), "m.yaml")
	if code, _, errs := runCLI(t, "export", dir, "--out", text); code != 0 {
		t.Fatal(errs)
	}
	into := filepath.Join(t.TempDir(), "m")
	if code, _, errs := runCLI(t, "import", text, into); code != 0 {
		t.Fatal(errs)
	}
	if code, out, errs := runCLI(t, "diff", dir, into); code != 0 {
		t.Fatalf("diff: exit %d\n%s%s", code, out, errs)
	}
	runs := func(model string) string {
		code, out, errs := runCLI(t, "run", model, "--json", "--scenarios", "M10", "--loads", "L10", "--observations", "3000", "--quiet", "--out", filepath.Join(t.TempDir(), "o.xlsx"))
		if code != 0 {
			t.Fatalf("run %s: exit %d: %s", model, code, errs)
		}
		var doc struct{ Runs []map[string]any }
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Runs) != 1 {
			t.Fatalf("run %s: %v, %d runs", model, err, len(doc.Runs))
		}
		delete(doc.Runs[0], "wallSeconds")
		figures, _ := json.MarshalIndent(doc.Runs, "", " ")
		return string(figures)
	}
	if a, b := runs(dir), runs(into); a != b {
		t.Errorf("the model and import(export(model)) run differently:\n%.600s\n---\n%.600s", a, b)
	}
}

// replaceInZip replaces old with new in the one part of the zip file at
// path that holds old, and fails the test unless exactly one does, once.
func replaceInZip(t *testing.T, path, old, new string) {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := zip.NewWriter(&out)
	found := 0
	for _, part := range r.File {
		rc, err := part.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		found += bytes.Count(data, []byte(old))
		data = bytes.ReplaceAll(data, []byte(old), []byte(new))
		pw, err := w.Create(part.Name)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write(data)
	}
	r.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if found != 1 {
		t.Fatalf("%s holds %q %d times; want once", path, old, found)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
