package modeltext

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/websim/websim/templates"
)

// An imported model is laid out as the template it came from: the same
// frozen headers, widths, header comments, drop-down lists and version.
func TestImportIsLaidOutAsTheTemplates(t *testing.T) {
	for _, name := range []string{"asum", "mmc", "blank"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := templates.Create(dir, name); err != nil {
				t.Fatal(err)
			}
			m, err := ReadFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			into := t.TempDir()
			if err := Write(m, into, false); err != nil {
				t.Fatal(err)
			}
			for _, book := range []string{SvcData, ProcData} {
				want, err := layoutText(filepath.Join(dir, book))
				if err != nil {
					t.Fatal(err)
				}
				got, err := layoutText(filepath.Join(into, book))
				if err != nil {
					t.Fatal(err)
				}
				if name == "blank" {
					// The blank template offers no names in its lists
					// (its sheets are placeholders); an import offers
					// the placeholders' names.
					want, got = withoutDropDowns(want), withoutDropDowns(got)
				}
				if got != want {
					t.Errorf("%s is not laid out as the template's:\n%s", book, lineDiff(want, got))
				}
			}
		})
	}
}

// lineDiff lists the lines only one of two texts has.
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

func withoutDropDowns(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "  drop-down ") || strings.Contains(l, "selection rule") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
