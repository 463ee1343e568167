// Package modeltext turns a websim model into one text file and back, and
// says in words what differs between two models.
//
// The text is one YAML document: a key per workbook, a key per sheet in
// the workbook's order, and each sheet a list. The list's first item is
// the sheet's header row (its first non-empty row), a flow list of the
// headers by column, null for a blank one. Every other item is a row
// under it: a map from header to cell, in header order, blank cells left
// out; {} is a blank row, kept so that the rows under it stay in place.
//
//	SvcData.xlsx:
//	  Settings:
//	    - [Name, Value, Note]
//	    - Name: TimeUnit
//	      Value: ms
//	    - Name: Seed
//	      Value: 1
//	  ServerInfo:
//	    - [Server, Capacity, TimeLimit]
//	    - Server: GWay
//	      Capacity: {formula: =2*45, value: 90}
//	      TimeLimit: 2000
//	ProcData.xlsx:
//	  Start:
//	    - [Step, ProcTime, SuccessRate, Server]
//	    - Step: Auth
//	      ProcTime: Exp(2)
//	      SuccessRate: 0.99
//	      Server: GWay
//
// A cell is a number (written in one form: 90, 0.25, 2.5e-07), a text
// (quoted by YAML where it could be read as something else: "12", "true"),
// true or false, or a formula: {formula: =..., value: V} where V is the
// value Excel saved with it (no value: none was saved). A column whose
// header is blank, or repeats an earlier header of the sheet, is keyed by
// its letter in parentheses: (C). Every sheet and column is exported, the
// user's own included; styles and number formats, comments, charts,
// merged cells, defined names and the empty rows above the header row are
// not.
//
// The text is canonical: Parse then WriteText gives back the same bytes
// for any text WriteText wrote. Write lays out the workbooks as the
// templates do (bold frozen header row with a comment per known column,
// widths, drop-down lists, the template version), so that a model written
// from its text reads as the same model.
//
// Diff matches sheets by name, columns by header and rows by their name
// column (Server, Entity, Step, Scenario, Name, Service, ...; the first
// one, or the first two, three, ... until every row's name is unique, as
// Entity and Attribute in Attributes), so that an inserted or moved row
// is one difference, not a cascade:
//
//	SvcData.xlsx!ServerInfo!B3 (GWay, Capacity): 90 -> 60
//	SvcData.xlsx!ServerInfo!A4 (DB): row added: Server DB, Capacity 4
//	ProcData.xlsx!Start!B2 (Auth, ProcTime): formula =A1*2 -> =A1+A1, same value 4
//
// A location is the cell in the second model; for what the second model
// no longer has (a removed row, column or sheet), the cell where the first
// one had it. In a text file, the header is row 1 and the list's items
// follow it row by row.
package modeltext
