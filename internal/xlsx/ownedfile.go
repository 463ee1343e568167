package xlsx

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// SheetsNotOwned returns the sheets of the workbook at path that websim
// did not write (OwnedSheets' rule), reading only the workbook's list of
// sheets and names (and its custom properties, for the markers of earlier
// versions): cheap whatever the size of its sheets, for the check before a
// run replaces a results workbook. An error means the file is not a
// workbook that can be read so.
func SheetsNotOwned(path string) ([]string, error) {
	zr, o, err := openOwnership(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	var theirs []string
	for _, s := range o.sheets {
		if !o.owned[s] {
			theirs = append(theirs, s)
		}
	}
	return theirs, nil
}

// ownership is what a workbook's parts say of its sheets: their names in
// order, those websim owns, and the digests of their cells (CellsMarker).
type ownership struct {
	sheets  []string
	owned   map[string]bool
	digests map[string]string
}

// openOwnership opens the package at path and reads its ownership; the
// caller closes it.
func openOwnership(path string) (*zip.ReadCloser, ownership, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, ownership{}, fmt.Errorf("%w (%v)", ErrDamaged, err)
	}
	o, err := readOwnership(zr)
	if err != nil {
		zr.Close()
		return nil, ownership{}, err
	}
	return zr, o, nil
}

// readOwnership reads the workbook's list of sheets and names (and its
// custom properties, for the markers of earlier versions).
func readOwnership(zr *zip.ReadCloser) (ownership, error) {
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
		} `xml:"sheets>sheet"`
		Names []struct {
			Name  string `xml:"name,attr"`
			Local string `xml:"localSheetId,attr"`
			Value string `xml:",chardata"`
		} `xml:"definedNames>definedName"`
	}
	if err := readXMLPart(zr, workbookPart(zr), &wb); err != nil {
		return ownership{}, err
	}
	var props struct {
		Props []struct {
			Name  string `xml:"name,attr"`
			Value struct {
				Text string `xml:",chardata"`
			} `xml:",any"`
		} `xml:"property"`
	}
	if err := readXMLPart(zr, "docProps/custom.xml", &props); err != nil && err != errNoPart {
		return ownership{}, err
	}
	listed := map[string]bool{}
	for _, p := range props.Props {
		if p.Name == OwnedSheetsProperty {
			for _, name := range strings.Split(p.Value.Text, "|") {
				listed[name] = true
			}
		}
	}
	o := ownership{owned: map[string]bool{}, digests: map[string]string{}}
	for _, s := range wb.Sheets {
		o.sheets = append(o.sheets, s.Name)
	}
	for _, dn := range wb.Names {
		i, err := strconv.Atoi(dn.Local)
		if err != nil || i < 0 || i >= len(wb.Sheets) {
			continue
		}
		scope := wb.Sheets[i].Name
		switch dn.Name {
		case OwnerMarker:
			if given, ok := givenName(dn.Value); ok && given == scope || !ok && listed[scope] {
				o.owned[scope] = true
			}
		case CellsMarker:
			if v, ok := givenName(dn.Value); ok {
				o.digests[scope] = v
			}
		}
	}
	return o, nil
}

// workbookPart is the name of the package's workbook part, as its
// relationships (_rels/.rels) name it: xl/workbook.xml in the files Excel
// and websim write, but another producer may put it elsewhere.
func workbookPart(zr *zip.ReadCloser) string {
	var rels struct {
		Rels []struct {
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if readXMLPart(zr, "_rels/.rels", &rels) == nil {
		for _, r := range rels.Rels {
			if strings.HasSuffix(r.Type, "/officeDocument") && r.Target != "" {
				return strings.TrimPrefix(r.Target, "/")
			}
		}
	}
	return "xl/workbook.xml"
}

// errNoPart: the package has no such part.
var errNoPart = fmt.Errorf("no such part")

// readXMLPart decodes the part name of zr into v (errNoPart when absent).
func readXMLPart(zr *zip.ReadCloser, name string, v any) error {
	for _, f := range zr.File {
		if !strings.EqualFold(f.Name, name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("%w (%s: %v)", ErrDamaged, name, err)
		}
		defer rc.Close()
		// A workbook's list of sheets and names is small; a bound keeps a
		// hostile part from filling memory.
		if err := xml.NewDecoder(io.LimitReader(rc, UnzipXMLSizeLimit)).Decode(v); err != nil {
			return fmt.Errorf("%w (%s: %v)", ErrDamaged, name, err)
		}
		return nil
	}
	return errNoPart
}
