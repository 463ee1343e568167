package study

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeRefusesAChangedByte changes one byte of a part, at each of
// many offsets in turn: the merge refuses the part as damaged, naming it,
// or gives the same study as the whole set; never other figures without
// an error. The format version is a claim of its own: a changed one is
// refused as a part of another format.
func TestMergeRefusesAChangedByte(t *testing.T) {
	dir := t.TempDir()
	good := runShards(t, func() *Plan { return mm1Plan(1, 100) }, 2, dir)
	whole, err := Merge(good)
	if err != nil {
		t.Fatal(err)
	}
	want := exact(whole)
	orig, err := os.ReadFile(good[0])
	if err != nil {
		t.Fatal(err)
	}
	idx, err := scanPart(good[0])
	if err != nil {
		t.Fatal(err)
	}
	offsets := changedOffsets(idx, len(orig), 23)
	formatAt := len(partialMagic) // PartialFormat is one byte
	changed := filepath.Join(dir, "changed.wsp")
	cases := []struct {
		name   string
		change func(byte) byte
	}{
		{"low bit", func(b byte) byte { return b ^ 0x01 }},
		{"high bit", func(b byte) byte { return b ^ 0x80 }},
		{"to a quote", func(byte) byte { return 0x22 }},
		{"to a plus", func(byte) byte { return 0x2B }},
		{"every bit", func(b byte) byte { return ^b }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			refused, same := 0, 0
			b := bytes.Clone(orig)
			for _, off := range offsets {
				b[off] = c.change(orig[off])
				if b[off] == orig[off] {
					continue
				}
				if err := os.WriteFile(changed, b, 0o644); err != nil {
					t.Fatal(err)
				}
				b[off] = orig[off]
				st, err := Merge([]string{changed, good[1]})
				switch {
				case err == nil && exact(st) == want:
					same++
				case err == nil:
					t.Fatalf("offset %d of %d: merged with other figures, no error", off, len(b))
				case off == formatAt && errors.Is(err, ErrPartForeign) && strings.HasPrefix(err.Error(), changed+": partial-file format "):
					refused++
				case errors.Is(err, ErrPartDamaged) && strings.HasPrefix(err.Error(), changed+": damaged: "):
					refused++
				default:
					t.Fatalf("offset %d of %d: %v; want %s refused as damaged", off, len(b), err, changed)
				}
			}
			t.Logf("%d offsets of %d bytes: %d changes refused, %d merged with the same figures", len(offsets), len(b), refused, same)
		})
	}
}

// changedOffsets are the offsets of a part of size bytes that
// TestMergeRefusesAChangedByte changes (a merge takes about a millisecond,
// too long for every byte): every byte of the framing (the start of the
// header, the uvarints and the checksums of each record, the end mark)
// and of the last bytes of each gob value, and one byte in every stride
// elsewhere.
func changedOffsets(idx *partIndex, size, stride int) []int {
	dense := make([]bool, size)
	mark := func(from, to int64) {
		for i := max(from, 0); i < min(to, int64(size)); i++ {
			dense[i] = true
		}
	}
	mark(0, int64(len(partialMagic))+8)
	for _, task := range idx.order {
		off, n := idx.records[task][0], idx.records[task][1]
		mark(off-8, off+4) // the end of what comes before, the uvarints, the start of the gob value
		mark(off+n-4, off+n+4)
	}
	mark(int64(size)-8, int64(size))
	var out []int
	for i := range size {
		if dense[i] || i%stride == 0 {
			out = append(out, i)
		}
	}
	return out
}

// TestReadRecordChecksItsChecksum: a record that changes between the
// merge's first pass (which checked it) and its reading is refused too.
func TestReadRecordChecksItsChecksum(t *testing.T) {
	dir := t.TempDir()
	good := runShards(t, func() *Plan { return mm1Plan(1, 100) }, 2, dir)
	idx, err := scanPart(good[0])
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(good[0])
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	for _, task := range idx.order {
		loc := idx.records[task]
		if _, err := readRecord(bytes.NewReader(orig), task, loc[0], loc[1], &buf); err != nil {
			t.Fatalf("run %d unchanged: %v", task, err)
		}
		if _, err := readRecord(bytes.NewReader(orig), task+1, loc[0], loc[1], &buf); !errors.Is(err, errRecordChanged) {
			t.Errorf("run %d read as run %d: %v, want %v", task, task+1, err, errRecordChanged)
		}
		b := bytes.Clone(orig)
		for off := loc[0]; off < loc[0]+loc[1]+4; off++ {
			b[off] ^= 0x01
			if _, err := readRecord(bytes.NewReader(b), task, loc[0], loc[1], &buf); !errors.Is(err, errRecordChanged) {
				t.Fatalf("run %d, a bit changed at offset %d: %v, want %v", task, off, err, errRecordChanged)
			}
			b[off] ^= 0x01
		}
	}
}
