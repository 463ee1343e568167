package report

import (
	"io"

	"github.com/websim/websim/internal/xlsx"
)

// LockedError says that a workbook could not be replaced because it is open
// in Excel; the results were saved beside it as SavedAs instead.
type LockedError = xlsx.LockedError

// writeWorkbook writes b's bytes to w; tests replace it to fail mid-way.
//
// The charts of result sheets that a write-back replaced stay in the
// package, unreferenced (the workbook library keeps them when a sheet is
// deleted), about 40 KB a time; Excel drops them when it saves. They are
// not pruned here: new charts and drawings are named by counting the
// existing ones, so removing some would make a later write-back reuse a
// name still in use.
var writeWorkbook = func(b *xlsx.Book, w io.Writer) error { return b.Write(w) }

// save writes b to path never half written and never over a workbook open
// in Excel (xlsx.Book.Save).
func save(b *xlsx.Book, path string) error { return b.SaveWith(path, writeWorkbook) }
