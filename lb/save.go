package lb

import (
	"github.com/xuri/excelize/v2"

	"github.com/websim/websim/internal/xlsxsave"
)

// Save writes f to path the way websim writes every workbook
// (xlsxsave.Save): through a temporary file renamed into place, and beside
// it under a new name, with a *xlsxsave.LockedError, when Excel has it open.
func Save(f *excelize.File, path string) error { return xlsxsave.Save(f, path) }
