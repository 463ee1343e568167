package modeltext

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/websim/websim/internal/xlsx"
)

// maxTextSize bounds a model's text file.
const maxTextSize = 64 << 20

// Load reads a model from path: a folder (its SvcData.xlsx and
// ProcData.xlsx), one workbook (.xlsx, exported alone under its file
// name), or a text file written by Export. An input that cannot be read
// is a Problem or Problems.
func Load(path string) (*Model, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &Problem{File: path, Msg: fmt.Sprintf("cannot read it (%v); expected a model folder, a workbook or a model's text file", unwrapPath(err))}
	}
	switch {
	case info.IsDir():
		return ReadFolder(path)
	case strings.EqualFold(filepath.Ext(path), ".xlsx"):
		return ReadWorkbook(path)
	}
	if !info.Mode().IsRegular() {
		return nil, &Problem{File: path, Msg: "is not a regular file (a pipe, a device or a socket); expected a model's text (YAML)"}
	}
	if info.Size() > maxTextSize {
		return nil, &Problem{File: path, Msg: fmt.Sprintf("the file is %d bytes, larger than a model's text (at most %d)", info.Size(), maxTextSize)}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Problem{File: path, Msg: fmt.Sprintf("cannot read it (%v)", unwrapPath(err))}
	}
	return Parse(path, data)
}

// ReadFolder reads the model in dir: SvcData.xlsx and ProcData.xlsx.
func ReadFolder(dir string) (*Model, error) {
	m := &Model{Source: dir}
	var problems Problems
	for _, name := range []string{SvcData, ProcData} {
		path, err := xlsx.Find(dir, name)
		if err != nil {
			problems = append(problems, &Problem{File: name, Msg: fmt.Sprintf("missing workbook; expected %s in the model folder %s", name, dir)})
			continue
		}
		b, err := readBook(path, name)
		if err != nil {
			problems = append(problems, asProblems(err)...)
			continue
		}
		m.Books = append(m.Books, b)
	}
	if len(problems) > 0 {
		if len(m.Books) == 0 {
			if others, _ := filepath.Glob(filepath.Join(dir, "*.xlsx")); len(others) > 0 {
				problems[len(problems)-1].Msg += fmt.Sprintf("; to export another workbook, name it: websim export %s", others[0])
			}
		}
		return nil, problems
	}
	return m, nil
}

// ReadWorkbook reads one workbook, named by its file name.
func ReadWorkbook(path string) (*Model, error) {
	b, err := readBook(path, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return &Model{Source: path, Books: []*Book{b}}, nil
}

// Write writes the model's workbooks into dir (created if need be), laid
// out as the templates lay out theirs: a bold frozen header row whose
// cells carry a comment explaining the column, the templates' column
// widths, drop-down lists for names and keywords, and the template
// version. A workbook already in dir is an error wrapping ErrExists,
// unless overwrite is set; then nothing is written at all.
func Write(m *Model, dir string, overwrite bool) error {
	if !overwrite {
		var there []string
		for _, b := range m.Books {
			if _, err := os.Stat(filepath.Join(dir, b.Name)); err == nil {
				there = append(there, b.Name)
			}
		}
		if len(there) > 0 {
			return fmt.Errorf("%s: %s: %w; choose another folder, or overwrite with --force", dir, strings.Join(there, ", "), ErrExists)
		}
	}
	return writeBooks(dir, m.Books, layoutFor(m))
}

// asProblems turns an error into Problems.
func asProblems(err error) Problems {
	var ps Problems
	if errors.As(err, &ps) {
		return ps
	}
	var p *Problem
	if errors.As(err, &p) {
		return Problems{p}
	}
	return Problems{{Msg: err.Error()}}
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
