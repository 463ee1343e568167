package templates

// blankModel is every sheet with its header, Settings with the defaults, and
// no model content: one placeholder entity sheet (Entity) and one
// placeholder service sheet (Service) to rename. It has no Experiments
// sheet: without one there is a single scenario, Base (add the sheet, a
// Scenario column and a column per setting to vary, to compare scenarios).
func blankModel() *model {
	return &model{
		settings:    defaults(),
		loads:       []string{"L1"},
		entities:    []entity{{name: "Entity"}},
		services:    []service{{name: "Service"}},
		placeholder: true,
	}
}
