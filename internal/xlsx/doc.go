// Package xlsx is websim's only door to .xlsx files: every other package
// reads and writes workbooks through it, and none imports excelize.
//
// Reading: Open checks a file before the workbook library sees it (its size,
// every part of the zip package, the limits of what it may unpack to, so a
// zip bomb or a truncated file is refused with a clear message) and reads
// values raw (1234.5678, never "1,234.57"); OpenData does the same with a
// higher limit, for workbooks of measured data. Sheets lists the sheets;
// ReadGrid reads a sheet as located rows, formulas resolved to the value
// Excel saved or, where none was saved, the one computed here; ReadTable
// matches a header row to a Spec (ignoring case, spaces and underscores)
// and returns located cells; ScanRows streams a sheet's raw rows (a
// column of a million values is never held whole); RawGrid, Rows, Value
// and Formulas give raw values and formulas for tools that show a
// workbook as it is. Problems are Problem
// values, located File!Sheet!Cell, keeping a typed cause for errors.Is and
// errors.As (ErrNotFound, ErrTooLarge, ErrDamaged, ErrFormula, ErrNewer, or
// the caller's, such as a rules error whose caret Detailed prints).
//
// Writing: New makes an empty workbook; SetRow, SetCell, WriteTable,
// StreamRows (which keeps a SavedFormula's saved value beside its formula),
// Comment, DropList, ColWidths, FreezeRows and the Style constants lay out
// sheets with the styles defined once here; AddChart adds a native line,
// scatter or column chart (columns with lines over them too; series with
// their colour, dash and markers); FitOnePage sets a sheet to print on one
// page; MarkOwned and OwnedSheets say which sheets
// websim wrote, so that a later run replaces its own and never a user's;
// Save writes atomically, and beside a file Excel holds open. A table of
// WriteTable is streamed into its sheet when the book is written, its
// rows given whole or one at a time (Table.RowFunc), and the package is
// put together in a temporary file: a workbook of half a million rows is
// written in little memory.
//
// Write methods return their error and also keep the first one (as
// bufio.Writer does): a run of calls may be checked once, by Err or Save.
//
// Inspection (Comments, Validations, FrozenRows, ColWidth, LookOf, TypeOf,
// Properties, DefinedNames) is what tests and tools read back; they never
// need the workbook library itself.
//
// A short example:
//
//	b := xlsx.New()
//	defer b.Close()
//	b.RenameSheet(b.Sheets()[0], "Summary")
//	b.WriteTable("Summary", xlsx.Table{Columns: []xlsx.Column{{Header: "Load"}, {Header: "Mean", Format: xlsx.Time}},
//		Rows: [][]any{{"L1", 12.5}}})
//	err := b.Save("OutPut.xlsx")
package xlsx
