package workbook

// SheetDoc describes one kind of input sheet, from the specs websim reads
// it by: for `websim help sheets` and the like.
type SheetDoc struct {
	// File is the workbook, Sheet the sheet's name ("<entity>" for one
	// sheet per entity, "<service>" for one per service).
	File, Sheet string
	// Required is true for a sheet every model must have.
	Required bool
	// About says what the sheet holds.
	About string
	// Columns are the known columns, in order, and Needed those that must
	// be present.
	Columns, Needed []string
	// More describes columns beyond Columns ("" when there are none).
	More string
	// Kept are columns the templates have that websim keeps but does not
	// read (Settings' Note), shown after Columns.
	Kept []string
}

// Sheets describes the input sheets, in the order websim reads them.
func Sheets() []SheetDoc {
	doc := func(file, sheet string, required bool, spec sheetSpec, about, more string) SheetDoc {
		return SheetDoc{File: file, Sheet: sheet, Required: required, About: about,
			Columns: spec.columns, Needed: spec.required, More: more}
	}
	settings := doc(SvcDataFile, "Settings", true, settingsSpec, "the settings below and the user's parameters, a row each (a setting left out takes its default, but the sheet is needed)", "")
	settings.Kept = []string{"Note"}
	return []SheetDoc{
		settings,
		doc(SvcDataFile, "ServerInfo", false, serverSpec, "the external (back-end) servers, a row each (needed when a step calls one)", ""),
		doc(SvcDataFile, "Arrivals", true, arrivalsSpec, "the entities (request types) and how often each arrives",
			"one column per load level, headed by its label, each cell an inter-arrival distribution (None: no arrivals)"),
		doc(SvcDataFile, "Attributes", false, attributesSpec, "attributes drawn once per request at arrival", ""),
		doc(SvcDataFile, "<entity>", true, entitySpec, "one sheet per entity of Arrivals: its services in order", ""),
		doc(SvcDataFile, "Experiments", false, experimentsSpec, "scenarios, a row each, overriding settings",
			"one column per setting it overrides, headed by the setting's name"),
		doc(SvcDataFile, TargetsSheet, false, targetsSpec, "what the application must achieve, a row per target; websim run judges "+
			"every target in each run (Summary, the printed table, --json), websim size finds the smallest "+
			"setting at which all of them hold", ""),
		doc(SvcDataFile, MeasuredSheet, false, measuredSpec, "figures measured on the real system, a row per load and measure, set beside the simulated ones in the Validation sheet", ""),
		doc(ProcDataFile, "<service>", true, serviceSpec, "one sheet per service: its steps, a row each", ""),
	}
}
