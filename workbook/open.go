package workbook

import (
	"errors"
	"io/fs"

	"github.com/websim/websim/internal/xlsx"
)

// TemplateVersion is the highest template version this websim reads. The
// templates stamp each workbook with it in the custom document property
// WebsimTemplateVersion (xlsx.TemplateVersionProperty).
const TemplateVersion = 1

// SupportedTemplateVersions lists every template version this websim reads,
// oldest first. A workbook without the property (made by hand) is read too.
func SupportedTemplateVersions() []int {
	v := make([]int, TemplateVersion)
	for i := range v {
		v[i] = i + 1
	}
	return v
}

// book is an open input workbook.
type book struct {
	name   string // file name as in messages: "SvcData.xlsx"
	x      *xlsx.Book
	sha256 string
	sheets []string
	// version is the template version, 0 for a hand-made workbook.
	version int
}

// openBook opens dir/name through the xlsx layer, which checks that it is a
// whole, reasonably sized .xlsx. It returns nil after reporting a problem.
func (r *reader) openBook(dir, name string) *book {
	path, err := xlsx.Find(dir, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.errorCause(xlsx.ErrNotFound, name, "", "", "missing workbook; expected %s in the model folder %s", name, dir)
		} else {
			r.errorCause(err, name, "", "", "cannot read the workbook (%v)", err)
		}
		return nil
	}
	x, err := xlsx.Open(path)
	if err != nil {
		var p xlsx.Problem
		if errors.As(err, &p) {
			p.File = name
			r.problems = append(r.problems, p)
		} else {
			r.errorCause(err, name, "", "", "cannot open the workbook (%v)", err)
		}
		return nil
	}
	x.Name = name
	b := &book{name: name, x: x, sha256: x.SHA256, sheets: x.Sheets()}
	v, p := x.TemplateVersion(TemplateVersion)
	if p != nil {
		r.problems = append(r.problems, *p)
	}
	b.version = v
	return b
}
