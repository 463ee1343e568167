package report

import (
	"io"

	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/internal/xlsxsave"
)

// LockedError says that a workbook could not be replaced because it is open
// in Excel; the results were saved beside it as SavedAs instead.
type LockedError = xlsxsave.LockedError

// writeWorkbook writes f's bytes to w; tests replace it to fail mid-way.
//
// The charts of result sheets that a write-back replaced stay in the
// package, unreferenced (excelize's DeleteSheet keeps them), about 40 KB a
// time; Excel drops them when it saves. They are not pruned here: excelize
// names new charts and drawings by counting the existing ones, so removing
// some would make a later write-back reuse a name still in use.
var writeWorkbook = func(f *excelize.File, w io.Writer) error { return f.Write(w) }

// save writes f to path never half written and never over a workbook open
// in Excel (xlsxsave.Save).
func save(f *excelize.File, path string) error { return xlsxsave.SaveWith(f, path, writeWorkbook) }
