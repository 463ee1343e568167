// Package workbook reads a websim model, the two workbooks SvcData.xlsx and
// ProcData.xlsx of a folder, checks everything in them, and returns a
// study.Plan: one engine.Model per scenario, with how to run it.
//
// Headers are matched ignoring case, spaces and underscores, so "Proc
// Time", "proc_time" and "ProcTime" are one column; the first non-empty row
// of a sheet is its header. Names (servers, services, steps, entities,
// loads) are matched exactly first, then ignoring case, as Excel does.
// Cells are read raw, not as formatted: 1234.5678 is 1234.5678 whatever
// its number format. A number typed as text is accepted where it is
// unambiguous ("12", " 0.5 ", "50%"); "0,5" and "1 000" are refused. A
// formula cell gives the value Excel saved, or, where none was saved, the
// value computed here. Columns headed Note, Notes or Comment are the
// user's, in any sheet. A sheet ends after 10,000 empty rows.
//
// A small SvcData.xlsx:
//
//	Settings     Name | Value            ServerInfo  Server | Capacity | TimeLimit
//	             TimeUnit | ms                       GWay   | 4        | 2000
//	             AppServers | 10
//	             SwitchUtil | 0.5        (a user parameter, for expressions)
//
//	Arrivals     Entity | L1       | L2       | Patience
//	             ASUM   | Exp(100) | Exp(50)  |
//
//	Attributes   Entity | Attribute | Value
//	             ASUM   | Cards     | UniformInt(1,6)
//
//	ASUM         Service | OnSuccess | OnFailure      (one sheet per entity)
//	             Start   |           |
//	             ASumSvc |           |
//
// and ProcData.xlsx, one sheet per service:
//
//	Start        Step | ProcTime | SuccessRate | Server
//	             Auth | Exp(2)   | 0.99        | GWay
//
// Read reports every problem at once, each located as File!Sheet!Cell:
//
//	ProcData.xlsx!Start!B2: distribution "Expo(3" at column 7: missing ")"; expected "Expo(3)"
//	ProcData.xlsx!Start!D2: unknown server "GWy"; did you mean "GWay"?; expected App or a server of SvcData.xlsx!ServerInfo (GWay)
//
// Warnings (a sheet or column websim leaves alone) do not fail Read.
//
// Inputs are opened with limits: a file over 64 MB, one that would unpack
// to more, or a damaged one is refused with a message before it is read.
package workbook
