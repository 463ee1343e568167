package workbook

import (
	"os"
	"strings"
	"testing"
)

// The README's tables of settings and of limits are the ones
// SettingsMarkdown and LimitsMarkdown make, so that they cannot drift
// (go test ./workbook -update rewrites them).
func TestREADMETables(t *testing.T) {
	for _, tc := range []struct {
		name, begin, end string
		want             func() string
	}{
		{"settings", "<!-- settings table: made by workbook.SettingsMarkdown; TestREADMETables keeps it so -->\n", "<!-- end of settings table -->", SettingsMarkdown},
		{"limits", "<!-- limits table: made by workbook.LimitsMarkdown; TestREADMETables keeps it so -->\n", "<!-- end of limits table -->", LimitsMarkdown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile("../README.md")
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			i, j := strings.Index(text, tc.begin), strings.Index(text, tc.end)
			if i < 0 || j < i {
				t.Fatalf("README.md lacks the %s table between %q and %q", tc.name, tc.begin, tc.end)
			}
			got, want := text[i+len(tc.begin):j], tc.want()
			switch {
			case got != want && *update:
				if err := os.WriteFile("../README.md", []byte(text[:i+len(tc.begin)]+want+text[j:]), 0o644); err != nil {
					t.Fatal(err)
				}
			case got != want:
				t.Errorf("README.md's %s table differs; put this between the markers:\n%s", tc.name, want)
			}
		})
	}
}
