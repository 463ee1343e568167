package workbook

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Limits on what an input workbook may expand to, so that a hostile or
// damaged file is refused quickly instead of filling memory.
const (
	// unzipSizeLimit caps the total size of a workbook's unpacked parts.
	unzipSizeLimit = 64 << 20
	// unzipXMLSizeLimit is the size above which a sheet is read from a
	// temporary file rather than memory.
	unzipXMLSizeLimit = 16 << 20
)

// TemplateVersion is the highest template version this websim reads. The
// templates stamp each workbook with it in the custom document property
// WebsimTemplateVersion.
const TemplateVersion = 1

// templateVersionProperty names the custom document property holding the
// template version.
const templateVersionProperty = "WebsimTemplateVersion"

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
	x      *excelize.File
	sha256 string
	sheets []string
	// version is the template version, 0 for a hand-made workbook.
	version int
}

var rawValues = excelize.Options{RawCellValue: true}

// openBook opens dir/name, checking that it is a whole, reasonably sized
// .xlsx before excelize sees it. It returns nil after reporting a problem.
func (r *reader) openBook(dir, name string) *book {
	path, err := findFile(dir, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.errorf(name, "", "", "missing workbook; expected %s in the model folder %s", name, dir)
		} else {
			r.errorf(name, "", "", "cannot read the workbook (%v)", err)
		}
		return nil
	}
	info, err := os.Stat(path)
	if err != nil {
		r.errorf(name, "", "", "cannot read the workbook (%v)", err)
		return nil
	}
	if info.IsDir() {
		r.errorf(name, "", "", "is a folder; expected an Excel workbook (.xlsx)")
		return nil
	}
	if info.Size() > unzipSizeLimit {
		r.errorf(name, "", "", "the file is %s, larger than websim reads (%s); expected a model workbook", sizeText(info.Size()), sizeText(unzipSizeLimit))
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		r.errorf(name, "", "", "cannot read the workbook (%v)", err)
		return nil
	}
	if msg := checkZip(data); msg != "" {
		r.errorf(name, "", "", "%s", msg)
		return nil
	}
	x, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit: unzipSizeLimit, UnzipXMLSizeLimit: unzipXMLSizeLimit, RawCellValue: true,
	})
	if err != nil {
		r.errorf(name, "", "", "cannot open the workbook (%v); expected an Excel workbook saved as .xlsx", err)
		return nil
	}
	sum := sha256.Sum256(data)
	b := &book{name: name, x: x, sha256: hex.EncodeToString(sum[:]), sheets: x.GetSheetList()}
	b.version = r.templateVersion(b)
	return b
}

// findFile finds name in dir, ignoring the case of the name when there is
// no exact match (a model copied from Windows may say svcdata.xlsx).
func findFile(dir, name string) (string, error) {
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return path, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) {
			return filepath.Join(dir, e.Name()), nil
		}
	}
	return "", fs.ErrNotExist
}

// checkZip reads every part of the package once, so that a truncated or
// damaged file, or one that expands past the limits (a zip bomb), is
// refused with a clear message. Go's zip reader never reads more than a
// part declares, so the declared sizes bound the work.
func checkZip(data []byte) string {
	const expected = "; expected an Excel workbook saved as .xlsx (open it in Excel and save it again)"
	if bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) {
		return "the workbook is encrypted or in the old .xls format" + expected
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if len(data) == 0 {
			return "the file is empty" + expected
		}
		return "the file is damaged or not a workbook (" + err.Error() + ")" + expected
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if f.UncompressedSize64 > unzipSizeLimit || total > unzipSizeLimit {
			return fmt.Sprintf("the workbook would expand to more than %s (part %s declares %s); refused as damaged or hostile, expected a model workbook",
				sizeText(unzipSizeLimit), f.Name, sizeText(int64(min(f.UncompressedSize64, 1<<62))))
		}
	}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if err != nil {
			return "the file is damaged (part " + f.Name + ": " + err.Error() + ")" + expected
		}
	}
	return ""
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// templateVersion reads the workbook's template version: 0 when it has none
// (a hand-made workbook). A newer version than websim reads is a problem.
func (r *reader) templateVersion(b *book) int {
	props, err := b.x.GetCustomProps()
	if err != nil {
		r.warnf(b.name, "", "", "cannot read the document properties (%v); read as a hand-made workbook", err)
		return 0
	}
	for _, p := range props {
		if !strings.EqualFold(p.Name, templateVersionProperty) {
			continue
		}
		text := cleanText(fmt.Sprint(p.Value))
		v, ok := parseNumber(text)
		if !ok || !isWhole(v) || v < 1 {
			r.warnf(b.name, "", "", "the template version %q is not a whole number; read as a hand-made workbook", text)
			return 0
		}
		if int(v) > TemplateVersion {
			r.errorf(b.name, "", "", "made by a newer websim (template version %d); update websim to read it", int(v))
		}
		return int(v)
	}
	return 0
}
