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
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrDamaged, err)
	}
	defer zr.Close()
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
		return nil, err
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
		return nil, err
	}
	listed := map[string]bool{}
	for _, p := range props.Props {
		if p.Name == OwnedSheetsProperty {
			for _, name := range strings.Split(p.Value.Text, "|") {
				listed[name] = true
			}
		}
	}
	owned := map[string]bool{}
	for _, dn := range wb.Names {
		i, err := strconv.Atoi(dn.Local)
		if dn.Name != OwnerMarker || err != nil || i < 0 || i >= len(wb.Sheets) {
			continue
		}
		scope := wb.Sheets[i].Name
		if given, ok := givenName(dn.Value); ok && given == scope || !ok && listed[scope] {
			owned[scope] = true
		}
	}
	var theirs []string
	for _, s := range wb.Sheets {
		if !owned[s.Name] {
			theirs = append(theirs, s.Name)
		}
	}
	return theirs, nil
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
