package xlsx

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestZipWriterReusesDeflaters writes parts one after another, and two
// packages at once, through newZipWriter, whose deflate writers come from
// a pool: every part reads back as written.
func TestZipWriterReusesDeflaters(t *testing.T) {
	parts := map[string]string{
		"a.xml": strings.Repeat("<row><c>1</c></row>", 5000),
		"b.xml": "<short/>",
		"c.xml": strings.Repeat("<row><c>text</c><c>2.5</c></row>", 3000),
	}
	names := []string{"a.xml", "b.xml", "c.xml"}
	var bufs [2]bytes.Buffer
	zws := [2]*zip.Writer{newZipWriter(&bufs[0]), newZipWriter(&bufs[1])}
	for _, name := range names {
		for k, zw := range zws {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(w, parts[name]+name); err != nil {
				t.Fatalf("package %d, %s: %v", k, name, err)
			}
		}
	}
	for k, zw := range zws {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(bufs[k].Bytes()), int64(bufs[k].Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			b, err := readPart(f)
			if err != nil {
				t.Fatalf("package %d, %s: %v", k, f.Name, err)
			}
			if want := parts[f.Name] + f.Name; string(b) != want {
				t.Errorf("package %d, %s: read %d bytes that differ from the %d written", k, f.Name, len(b), len(want))
			}
		}
	}
}
