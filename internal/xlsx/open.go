package xlsx

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/xuri/excelize/v2"
)

// Limits on what an input workbook may expand to, so that a hostile or
// damaged file is refused quickly instead of filling memory.
const (
	// UnzipSizeLimit caps the file's size and the total size of its
	// unpacked parts.
	UnzipSizeLimit = 64 << 20
	// UnzipXMLSizeLimit is the size above which a sheet is read from a
	// temporary file rather than memory.
	UnzipXMLSizeLimit = 16 << 20
	// DataSizeLimit is UnzipSizeLimit for a workbook of measured data
	// (OpenData): a sheet of Excel's 1,048,576 rows unpacks to tens of MB
	// a column.
	DataSizeLimit = 512 << 20
)

// TemplateVersionProperty names the custom document property in which the
// templates stamp a workbook's template version.
const TemplateVersionProperty = "WebsimTemplateVersion"

// Book is an open workbook: read from a file (Open) or new (New).
type Book struct {
	// Name is the file's name as messages give it ("SvcData.xlsx").
	Name string
	// SHA256 is the hex SHA-256 of the file's bytes as read ("" for New).
	SHA256 string
	// path is the file it was read from ("" for New): saved over it, the
	// file must still hold the bytes read (Save).
	path string

	f   *excelize.File
	err error // the first write error
	// made is true for a book made by New, every part of it websim's:
	// only there are its charts' parts rewritten (turnEdits),
	// never in a user's workbook written back.
	made   bool
	styles map[Style]int
	// numFmts caches the number formats of cell styles, by style id
	// (numFormat).
	numFmts map[int]numFmt
	// widths has, per sheet, the widths ColWidths set, by column, and
	// widthsDue the sheets whose widths the library has not been given
	// since (flushWidths).
	widths    map[string]map[int]float64
	widthsDue map[string]bool
	// cellBuf holds the cells of the row being streamed (streamCells).
	cellBuf []excelize.Cell
	// tables are WriteTable's tables, streamed into their sheets when the
	// book is written.
	tables []*pendingTable
	// spooled are the rows of the tables streamed, by sheet, which Write
	// puts into their sheets' parts (spliceRows): those sheets' cells are
	// the stream's from then on.
	spooled []spooledSheet
	// protections are the protection elements of the sheets of the
	// workbook read, as they were written: the save puts them back
	// (keepProtectionEdits). DeleteSheet and RenameSheet keep them in step.
	protections []keptElement
	// savedEmpty holds, by sheet, the formula cells of the workbook read
	// whose saved value is an empty text (savedEmptyTexts): the formula
	// gave "" when last computed, and is not computed again.
	savedEmpty map[string]map[string]bool
	// marked are the sheets this book marked as websim's (markCells),
	// whose digests Write fills.
	marked map[string]bool
	// places are where the sheets ReplaceOwned deleted stood, for
	// MarkOwned to put the sheets that replace them.
	places []place
	// scratchDir and scratchPattern name the temporary file Write puts
	// the package together in (os.CreateTemp's; Save sets them beside the
	// file it writes).
	scratchDir, scratchPattern string
}

var rawValues = excelize.Options{RawCellValue: true}

// New returns an empty workbook holding one sheet, "Sheet1".
func New() *Book {
	return &Book{f: excelize.NewFile(excelize.Options{TmpDir: libraryTempDir()}), made: true}
}

// Open opens the workbook at path, checking first that it is a whole,
// reasonably sized .xlsx. A problem is returned as a Problem (File is the
// file's base name) with the cause ErrNotFound, ErrTooLarge or ErrDamaged.
// The book may be edited and saved; Close it.
func Open(path string) (*Book, error) { return open(path, UnzipSizeLimit) }

// OpenData is Open for a workbook of measured data, which may be far larger
// than a model: its limit is DataSizeLimit.
func OpenData(path string) (*Book, error) { return open(path, DataSizeLimit) }

func open(path string, limit int64) (*Book, error) {
	name := filepath.Base(path)
	fail := func(cause error, format string, args ...any) (*Book, error) {
		return nil, Problem{File: name, Msg: fmt.Sprintf(format, args...), Err: cause}
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail(ErrNotFound, "no such file")
	case err != nil:
		return fail(err, "cannot read the workbook (%v)", err)
	case info.IsDir():
		return fail(ErrDamaged, "is a folder; expected an Excel workbook (.xlsx)")
	case !info.Mode().IsRegular():
		// A pipe or a device (/dev/zero) has no size to check and may never
		// end: reading it would hang or fill the memory.
		return fail(ErrDamaged, "is not a regular file (a pipe, a device or a socket); expected an Excel workbook (.xlsx)")
	case info.Size() > limit:
		return fail(ErrTooLarge, "the file is %s, larger than websim reads (%s); expected a model workbook", sizeText(info.Size()), sizeText(limit))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(err, "cannot read the workbook (%v)", err)
	}
	if cause, msg := checkZip(data, limit); msg != "" {
		return fail(cause, "%s", msg)
	}
	ps, protections, savedEmpty := checkSheets(data, name)
	if len(ps) > 0 {
		return nil, ps[0] // the first damaged cell says the file is damaged
	}
	// Parts left unreachable, or numbered with gaps (a package saved by
	// LibreOffice numbers comments by sheet), would make the library write
	// a new chart or comment into a part still in use (see pruneParts).
	parts, err := pruneParts(data)
	if err != nil {
		return fail(ErrDamaged, "cannot open the workbook (%v); expected an Excel workbook saved as .xlsx", err)
	}
	x, err := excelize.OpenReader(bytes.NewReader(parts), excelize.Options{
		UnzipSizeLimit: limit, UnzipXMLSizeLimit: UnzipXMLSizeLimit, RawCellValue: true,
		TmpDir: libraryTempDir(),
	})
	if err != nil {
		return fail(ErrDamaged, "cannot open the workbook (%v); expected an Excel workbook saved as .xlsx", err)
	}
	if first, second, ok := sameNameButCase(x.GetSheetList()); ok {
		return nil, Problem{File: name, Sheet: second, Err: ErrDamaged,
			Msg: fmt.Sprintf("the name differs from that of the sheet %q only in case, which Excel refuses and websim cannot tell apart; expected each sheet's name once (rename or remove one of the two)", first)}
	}
	sum := sha256.Sum256(data)
	return &Book{Name: name, SHA256: hex.EncodeToString(sum[:]), path: path, f: x, protections: protections, savedEmpty: savedEmpty}, nil
}

// sameNameButCase finds the first sheet whose name differs from an
// earlier one's only in case (as Excel compares them), which only a
// program other than Excel can have written: the library finds a sheet
// by its name in any case, so the second would be read as the first.
func sameNameButCase(sheets []string) (first, second string, ok bool) {
	seen := make(map[string]string, len(sheets))
	for _, s := range sheets {
		key := strings.ToLower(s)
		if earlier, dup := seen[key]; dup {
			return earlier, s, true
		}
		seen[key] = s
	}
	return "", "", false
}

// Find finds name in dir, ignoring the case of the name when there is no
// exact match (a model copied from Windows may say svcdata.xlsx). The error
// is fs.ErrNotExist when there is no such file.
func Find(dir, name string) (string, error) {
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

// Close releases the workbook's temporary files.
func (b *Book) Close() error {
	for _, sp := range b.spooled {
		sp.rows.close()
	}
	b.spooled = nil
	return b.f.Close()
}

// Sheets lists the sheets in workbook order.
func (b *Book) Sheets() []string { return b.f.GetSheetList() }

// FindSheet finds a sheet by name, ignoring case as Excel does.
func (b *Book) FindSheet(name string) (string, bool) {
	sheets := b.Sheets()
	for _, s := range sheets {
		if s == name {
			return s, true
		}
	}
	for _, s := range sheets {
		if strings.EqualFold(s, name) {
			return s, true
		}
	}
	return "", false
}

// checkZip reads every part of the package once, so that a truncated or
// damaged file, or one that expands past the limits (a zip bomb), is
// refused with a clear message. Go's zip reader never reads more than a
// part declares, so the declared sizes bound the work.
func checkZip(data []byte, limit int64) (error, string) {
	const expected = "; expected an Excel workbook saved as .xlsx (open it in Excel and save it again)"
	if bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) {
		return ErrDamaged, "the workbook is encrypted or in the old .xls format" + expected
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if len(data) == 0 {
			return ErrDamaged, "the file is empty" + expected
		}
		return ErrDamaged, "the file is damaged or not a workbook (" + err.Error() + ")" + expected
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if f.UncompressedSize64 > uint64(limit) || total > uint64(limit) {
			return ErrTooLarge, fmt.Sprintf("the workbook would expand to more than %s (part %s declares %s); refused as damaged or hostile, expected a model workbook",
				sizeText(limit), f.Name, sizeText(int64(min(f.UncompressedSize64, 1<<62))))
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
			return ErrDamaged, "the file is damaged (part " + f.Name + ": " + err.Error() + ")" + expected
		}
	}
	return nil, ""
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

// TemplateVersion reads the template version stamped in the workbook
// (TemplateVersionProperty): 0 for a workbook made by hand. A version that
// is not a whole number is read as 0 with a warning; one above newest is an
// error with the cause ErrNewer. p is nil when there is nothing to say.
func (b *Book) TemplateVersion(newest int) (version int, p *Problem) {
	props, err := b.f.GetCustomProps()
	if err != nil {
		return 0, &Problem{File: b.Name, Warning: true, Err: err,
			Msg: fmt.Sprintf("cannot read the document properties (%v); read as a hand-made workbook", err)}
	}
	for _, prop := range props {
		if !strings.EqualFold(prop.Name, TemplateVersionProperty) {
			continue
		}
		text := strings.TrimSpace(fmt.Sprint(prop.Value))
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) || v != math.Trunc(v) || v < 1 {
			return 0, &Problem{File: b.Name, Warning: true,
				Msg: fmt.Sprintf("the template version %q is not a whole number; read as a hand-made workbook", text)}
		}
		if int(v) > newest {
			return int(v), &Problem{File: b.Name, Err: ErrNewer,
				Msg: fmt.Sprintf("made by a newer websim (template version %d); update websim to read it", int(v))}
		}
		return int(v), nil
	}
	return 0, nil
}

// libTemp is the folder of the library's temporary files (a sheet too
// large to keep in memory, a sheet being streamed out) once a command
// asks for one (KeepLibraryTemp): one a process, made when first needed,
// so that a command stopped where it stands can remove them all
// (RemoveLibraryTemp). Without it they go to the system's folder, where a
// write-back interrupted in a large workbook left tens of megabytes.
var libTemp struct {
	sync.Mutex
	kept bool
	dir  string
}

// KeepLibraryTemp puts the library's temporary files of the workbooks
// opened or made from now on in a folder of this process's own, which
// RemoveLibraryTemp removes. The websim command calls it first.
func KeepLibraryTemp() {
	libTemp.Lock()
	defer libTemp.Unlock()
	libTemp.kept = true
}

// libraryTempDir is libTemp's folder, made on the first call after
// KeepLibraryTemp ("" before it, or when it cannot be made: the system's
// folder, as the library would use).
func libraryTempDir() string {
	libTemp.Lock()
	defer libTemp.Unlock()
	if libTemp.kept && libTemp.dir == "" {
		if dir, err := os.MkdirTemp("", "websim-xlsx-"); err == nil {
			libTemp.dir = dir
		}
	}
	return libTemp.dir
}

// RemoveLibraryTemp removes the library's temporary files of this process
// (their folder): when the command ends, or is stopped where it stands.
// Books still open after it must not be used.
func RemoveLibraryTemp() {
	libTemp.Lock()
	defer libTemp.Unlock()
	if libTemp.dir != "" {
		os.RemoveAll(libTemp.dir)
		libTemp.dir = ""
	}
}
