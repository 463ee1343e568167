package templates

// settingNotes explain each setting in the Note column, in the contract's
// words with its default.
var settingNotes = map[string]string{
	"TimeUnit":      "The unit of every time in the model (a label only). Default s.",
	"Seed":          "Random seed: the same seed gives the same results. Default 1.",
	"WarmUp":        "Simulated time discarded before statistics start. Default 0.",
	"Observations":  "Requests finished (completed, failed or abandoned) after the warm-up, per run. Default 100000.",
	"Replications":  "Independent runs per scenario and load. Default 1.",
	"Loads":         "The Arrivals load columns to run: all, or a comma list of their headers (e.g. L1,L5). Default all.",
	"AppServers":    "Number of application servers. Default 1.",
	"AppCapacity":   "AppRes units (processes) per application server. Default 20.",
	"SelectionRule": "How a request picks its application server: LBS (least busy), Random or Cyclic. Default LBS.",
	"RATParameter":  "A number used by RAT. Default 0.",
	"RAT":           "Time to acquire an inactive AppRes unit (an expression; AppUtil is the server's busy fraction). Default RATParameter * AppUtil.",
	"TActive":       "Time a released unit stays active, so that the next request captures it instantly, without RAT. Default 0.",
}

// defaults are the Settings rows of the blank template: every setting with
// its default value.
func defaults() []setting {
	rows := []setting{
		{"TimeUnit", "s", ""}, {"Seed", 1, ""}, {"WarmUp", 0, ""}, {"Observations", 100000, ""},
		{"Replications", 1, ""}, {"Loads", "all", ""}, {"AppServers", 1, ""}, {"AppCapacity", 20, ""},
		{"SelectionRule", "LBS", ""}, {"RATParameter", 0, ""}, {"RAT", "RATParameter * AppUtil", ""},
		{"TActive", 0, ""},
	}
	for i := range rows {
		rows[i].note = settingNotes[rows[i].name]
	}
	return rows
}

// withNotes fills blank notes from settingNotes.
func withNotes(rows []setting) []setting {
	for i := range rows {
		if rows[i].note == "" {
			rows[i].note = settingNotes[rows[i].name]
		}
	}
	return rows
}
