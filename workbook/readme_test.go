package workbook

import (
	"os"
	"strings"
	"testing"
)

// The README's table of settings is the one SettingsMarkdown makes from
// BuiltinSettings, so that the two cannot drift.
func TestREADMESettingsTable(t *testing.T) {
	const begin, end = "<!-- settings table: made by workbook.SettingsMarkdown; TestREADMESettingsTable keeps it so -->\n", "<!-- end of settings table -->"
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the settings table between %q and %q", begin, end)
	}
	if got, want := text[i+len(begin):j], SettingsMarkdown(); got != want && *update {
		if err := os.WriteFile("../README.md", []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if got != want {
		t.Errorf("README.md's settings table differs from SettingsMarkdown(); put this between the markers:\n%s", want)
	}
}

// The README's table of limits is LimitsMarkdown's.
func TestREADMELimitsTable(t *testing.T) {
	const begin, end = "<!-- limits table: made by workbook.LimitsMarkdown; TestREADMELimitsTable keeps it so -->\n", "<!-- end of limits table -->"
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the limits table between %q and %q", begin, end)
	}
	if got, want := text[i+len(begin):j], LimitsMarkdown(); got != want && *update {
		if err := os.WriteFile("../README.md", []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if got != want {
		t.Errorf("README.md's limits table differs from LimitsMarkdown(); put this between the markers:\n%s", want)
	}
}
