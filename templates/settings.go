package templates

import (
	"strconv"
	"strings"

	"github.com/websim/websim/workbook"
)

// settingNote is the Note of a built-in setting: its help and default, from
// the one table of settings (workbook.BuiltinSettings); "" for a user
// parameter.
func settingNote(name string) string {
	for _, b := range workbook.BuiltinSettings {
		if b.Name == name {
			return b.Note()
		}
	}
	return ""
}

// settingChoices are the words a built-in choice setting accepts (its
// drop-down list), nil for other settings.
func settingChoices(name string) []string {
	for _, b := range workbook.BuiltinSettings {
		if b.Name == name {
			return b.Choices
		}
	}
	return nil
}

// defaults are the Settings rows of the blank template: every built-in
// setting with its default value (a number where it is one) and note.
func defaults() []setting {
	var rows []setting
	for _, b := range workbook.BuiltinSettings {
		var v any = b.Default
		if b.Kind == workbook.WholeSetting || b.Kind == workbook.NumberSetting {
			if x, err := strconv.ParseFloat(b.Default, 64); err == nil {
				v = x
			}
		}
		rows = append(rows, setting{b.Name, v, b.Note()})
	}
	return rows
}

// withNotes fills blank notes of built-in settings from the table.
func withNotes(rows []setting) []setting {
	for i := range rows {
		if rows[i].note == "" {
			rows[i].note = settingNote(rows[i].name)
		}
	}
	return rows
}

// settingsNameComment is the comment on the Settings sheet's Name header:
// every built-in setting's name, from the table.
func settingsNameComment() string {
	var names []string
	for _, b := range workbook.BuiltinSettings {
		names = append(names, b.Name)
	}
	return "A setting's name: " + strings.Join(names, ", ") + ". Any other name is a user parameter, usable by name in every expression."
}
