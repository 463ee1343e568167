package study

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/websim/websim/engine"
)

// A partial file holds one shard's share of a study, as `websim run
// --shard K/N --partial FILE` writes it and `websim merge` reads it:
//
//	magic      "websim-partial\n"
//	format     uvarint (PartialFormat)
//	header     uvarint length, then a gob-encoded PartialHeader, then the
//	           checksum of the file so far (magic, format and header)
//	records    per run of the shard: uvarint (run index + 1), uvarint
//	           length, a gob-encoded partialRecord, then the checksum of
//	           the record (its two uvarints and its gob value)
//	end        uvarint 0, then uvarint (number of records); nothing after
//
// A checksum is the CRC-32C (Castagnoli) of its bytes, 4 bytes little
// endian: gob reads most damaged bytes as other figures, not as an error,
// so a part changed after websim wrote it is told by its checksums (the
// end mark is checked against the records it counts). Each gob value
// stands alone (its own encoder), so that the merge can seek to one run's
// record without reading the others. A record keeps the whole
// engine.Result (histogram and batch means included) with the figures the
// pooling needs, so that the merge computes what one machine computes.
const partialMagic = "websim-partial\n"

// PartialFormat is the version of the partial-file layout; a merge refuses
// parts of another version. Format 3 adds each run's percentiles (their
// intervals) to its record; format 4 has their wider window, with the
// intervals of p50 and p90; format 5 has the Count overruns by cell, the
// deadlock flag, the entities absent at a load, each run's
// TargetPrecision and the percentiles' thin parts; format 6 keeps a
// setting's source apart from its value, so that shares run with a flag
// that repeats the model's value merge, and the application servers'
// accept queues; format 7 records the program's build (Options.Build);
// format 8 adds the checksums of the header and of each record.
const PartialFormat = 8

// partialCRC is the table of the partial file's checksums (CRC-32C).
var partialCRC = crc32.MakeTable(crc32.Castagnoli)

// appendChecksum appends the checksum of b to b.
func appendChecksum(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, partialCRC))
}

// PartialHeader says which study a partial file belongs to and which share
// of it it holds. Every part of a study has the same header but for Shard
// and Started.
type PartialHeader struct {
	// Format is PartialFormat; Version is websim's version, and Build
	// the program's identity (Options.Build).
	Format  int
	Version string
	Build   string
	// Shard is this part's share.
	Shard Shard
	// Model, TimeUnit, Inputs (the input workbooks' SHA-256), Seed,
	// Settings, ScenarioSettings and Warnings are the study's, as a
	// one-machine run records them.
	Model            string
	TimeUnit         string
	Inputs           []Input
	Seed             uint64
	Settings         []Setting
	ScenarioSettings map[string][]Setting
	Warnings         []string
	// Targets are the Targets sheet's rows, judged at every merged run.
	Targets []Target
	// Measured are the Measured sheet's rows, set beside every merged run.
	Measured []Measured
	// SettingsHash is the SHA-256 of everything that steers the runs: the
	// settings, each scenario's overrides and run settings.
	SettingsHash string
	// Started is when this shard started.
	Started time.Time
	// Scenarios and Loads are the study's labels in order, and Runs its
	// scenario × load cells.
	Scenarios []string
	Loads     []string
	Runs      []PartialRun
	// Charts and ArrivalRates are the study's, for the Charts sheet.
	Charts       map[string][]string
	ArrivalRates []float64
	// Tasks is the study's list of runs (each replication of each cell),
	// in the order they are dealt, with their expected costs.
	Tasks []PartialTask
}

// PartialRun is one scenario × load cell of the study.
type PartialRun struct {
	Scenario, Load  string
	Replications    int
	TargetPrecision float64
}

// PartialTask is one replication of one cell: Run indexes Runs.
type PartialTask struct {
	Scenario, Load, Replication, Run int
	Cost                             float64
}

// partialRecord is one finished run as the pooling needs it. The
// response histogram travels apart from the Result, as its sparse bytes
// (stats.Histogram.MarshalBinary), so that the merge can add it into the
// cell's histogram without a dense copy per run.
type partialRecord struct {
	Result *engine.Result // ResponseHist and ResponsePercentiles nil
	Hist   []byte         // nil when the run had no histogram
	// Pct is the run's ResponsePercentiles (stats.Percentiles.MarshalBinary),
	// for the pooled intervals of the percentiles (p50 to p99); nil
	// when the run had none.
	Pct    []byte
	CapHit bool
	Wall   float64
	WarmUp float64
}

// newRecord makes the record of a finished run.
func newRecord(o outcome) (partialRecord, error) {
	rec := partialRecord{Result: o.res, CapHit: o.capHit, Wall: o.wall, WarmUp: o.warmUp}
	r := *o.res
	if h := o.res.ResponseHist; h != nil {
		b, err := h.MarshalBinary()
		if err != nil {
			return rec, err
		}
		r.ResponseHist, rec.Hist = nil, b
	}
	if p := o.res.ResponsePercentiles; p != nil {
		b, err := p.MarshalBinary()
		if err != nil {
			return rec, err
		}
		r.ResponsePercentiles, rec.Pct = nil, b
	}
	rec.Result = &r
	return rec, nil
}

// ShardReport says what ExecuteShard did.
type ShardReport struct {
	Shard Shard
	// Runs is the number of runs of the shard, out of Total in the study.
	Runs, Total int
}

// ExecuteShard runs the share of p's runs that Deal gives to shard and
// writes them, with everything the merge needs, to the partial file path
// (through a temporary file, so that no half-written part is left). A run
// gets the same seed and streams as in Execute: its result does not depend
// on the shard that ran it.
func ExecuteShard(ctx context.Context, p *Plan, opts Options, shard Shard, path string) (*ShardReport, error) {
	if _, err := checkShard(shard, "shard "+shard.String()); err != nil {
		return nil, err
	}
	st, tasks, err := newStudy(p, opts)
	if err != nil {
		return nil, err
	}
	h := partialHeader(p, st, tasks, opts.Version)
	h.Build = opts.Build
	h.Shard = shard
	var which []int
	for i, s := range Deal(taskCosts(h.Tasks), shard.N) {
		if s == shard.K {
			which = append(which, i)
		}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("writing the partial file: %w", err)
	}
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	if err := writeHeader(w, h); err != nil {
		return nil, err
	}
	// Records go out in the shard's run order whatever order the runs end
	// in, so that a part's bytes do not depend on --jobs; a run that ends
	// before those ahead of it waits in pending.
	n := 0
	pending := map[int]outcome{}
	err = runTasks(ctx, p, tasks, which, opts, func(i int, o outcome) error {
		pending[i] = o
		for n < len(which) {
			o, ok := pending[which[n]]
			if !ok {
				break
			}
			delete(pending, which[n])
			rec, err := newRecord(o)
			if err == nil {
				err = writeRecord(w, which[n], rec)
			}
			if err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	w.Write(binary.AppendUvarint(binary.AppendUvarint(nil, 0), uint64(n)))
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	// CreateTemp makes the file private; a part is read by the merge,
	// maybe as another user on another node.
	if err := tmp.Chmod(0o644); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	tmp = nil
	return &ShardReport{Shard: shard, Runs: len(which), Total: len(tasks)}, nil
}

// partialHeader describes st (not yet run) and its tasks.
func partialHeader(p *Plan, st *Study, tasks []task, version string) *PartialHeader {
	h := &PartialHeader{
		Format: PartialFormat, Version: version,
		Model: st.Model, TimeUnit: st.TimeUnit, Inputs: st.Inputs, Seed: st.Seed,
		Settings: st.Settings, ScenarioSettings: st.ScenarioSettings, Warnings: st.Warnings, Targets: st.Targets, Measured: st.Measured,
		SettingsHash: settingsHash(p), Started: st.Started,
		Scenarios: st.Scenarios, Loads: st.Loads,
		Charts: st.Charts, ArrivalRates: st.ArrivalRates,
	}
	for _, r := range st.Runs {
		h.Runs = append(h.Runs, PartialRun{Scenario: r.Scenario, Load: r.Load, Replications: r.Replications, TargetPrecision: r.TargetPrecision})
	}
	for _, t := range tasks {
		h.Tasks = append(h.Tasks, PartialTask{Scenario: t.scenario, Load: t.load, Replication: t.rep, Run: t.run, Cost: p.cost(t)})
	}
	return h
}

func taskCosts(ts []PartialTask) []float64 {
	c := make([]float64, len(ts))
	for i, t := range ts {
		c[i] = t.Cost
	}
	return c
}

// settingsHash is the SHA-256 of what steers p's runs, in a fixed text.
func settingsHash(p *Plan) string {
	h := sha256.New()
	for _, s := range p.Settings {
		fmt.Fprintf(h, "setting %q %q\n", s.Name, s.Value)
	}
	for _, sc := range p.Scenarios {
		r := sc.Run
		fmt.Fprintf(h, "scenario %q seed %d warmup %v auto %v obs %d reps %d loads %v precision %v\n",
			sc.Name, r.Seed, r.WarmUp, r.AutoWarmUp, r.Observations, r.Replications, r.Loads, r.TargetPrecision)
		for _, o := range sc.Overrides {
			fmt.Fprintf(h, "override %q %q\n", o.Name, o.Value)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func writeHeader(w io.Writer, h *PartialHeader) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(h); err != nil {
		return fmt.Errorf("encoding the partial header: %w", err)
	}
	out := append([]byte(partialMagic), binary.AppendUvarint(nil, PartialFormat)...)
	out = binary.AppendUvarint(out, uint64(buf.Len()))
	_, err := w.Write(appendChecksum(append(out, buf.Bytes()...)))
	return err
}

func writeRecord(w io.Writer, task int, rec partialRecord) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&rec); err != nil {
		return fmt.Errorf("encoding run %d: %w", task, err)
	}
	out := binary.AppendUvarint(nil, uint64(task+1))
	out = binary.AppendUvarint(out, uint64(buf.Len()))
	_, err := w.Write(appendChecksum(append(out, buf.Bytes()...)))
	return err
}

// maxFrame bounds one gob value of a partial file, so that a damaged
// length cannot ask for all memory.
const maxFrame = 256 << 20

// ErrPartDamaged is the cause of a partial file that cannot be read: not
// one, cut short (a shard that did not finish), or edited.
var ErrPartDamaged = errors.New("not a whole websim partial file")

// partIndex is what a first pass over a partial file learns: its header
// and where each of its runs' records starts.
type partIndex struct {
	file   string
	header *PartialHeader
	// records maps a task index to the offset of its gob value and length.
	records map[int][2]int64
	order   []int // task indexes in file order
}

// countingReader counts the bytes read through it, and keeps their
// checksum since the last call of sum.
type countingReader struct {
	r   *bufio.Reader
	n   int64
	crc uint32
	one [1]byte // ReadByte's byte, for the checksum
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
		c.one[0] = b
		c.crc = crc32.Update(c.crc, partialCRC, c.one[:])
	}
	return b, err
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.crc = crc32.Update(c.crc, partialCRC, p[:n])
	return n, err
}

// skip passes over n bytes, adding them to the checksum without copying
// them.
func (c *countingReader) skip(n int64) error {
	for n > 0 {
		b, err := c.r.Peek(int(min(n, int64(c.r.Size()))))
		c.crc = crc32.Update(c.crc, partialCRC, b)
		c.r.Discard(len(b))
		c.n += int64(len(b))
		n -= int64(len(b))
		if err != nil {
			return err
		}
	}
	return nil
}

// sum reads a checksum and says whether it is that of the bytes read
// since the last call; the next bytes start a new checksum.
func (c *countingReader) sum() (bool, error) {
	want := c.crc
	var b [4]byte
	_, err := io.ReadFull(c, b[:])
	c.crc = 0
	return err == nil && binary.LittleEndian.Uint32(b[:]) == want, err
}

// scanPart reads the header of a partial file and indexes its records
// without decoding them.
func scanPart(path string) (*partIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("%w: it is a folder; expected the partial files (.wsp) that websim run --shard K/N --partial wrote, each named (parts/*.wsp)", ErrPartDamaged)
	} else if err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: it is not a regular file (a pipe, a device or a socket); expected a partial file (.wsp)", ErrPartDamaged)
	}
	cr := &countingReader{r: bufio.NewReaderSize(f, 1<<16)}
	damaged := func(what string, err error) error {
		if err != nil {
			return fmt.Errorf("%w: %s (%v)", ErrPartDamaged, what, err)
		}
		return fmt.Errorf("%w: %s", ErrPartDamaged, what)
	}
	magic := make([]byte, len(partialMagic))
	if _, err := io.ReadFull(cr, magic); err != nil || string(magic) != partialMagic {
		return nil, damaged("it does not start as a partial file of websim run --shard (a .wsp file)", nil)
	}
	format, err := binary.ReadUvarint(cr)
	if err != nil {
		return nil, damaged("no format version", err)
	}
	if format != PartialFormat {
		return nil, &formatError{got: format}
	}
	size, err := binary.ReadUvarint(cr)
	if err != nil || size > maxFrame {
		return nil, damaged("no header", err)
	}
	raw := make([]byte, size)
	if _, err := io.ReadFull(cr, raw); err != nil {
		return nil, damaged("its header is cut short", err)
	}
	if ok, err := cr.sum(); err != nil {
		return nil, damaged("its header is cut short", err)
	} else if !ok {
		return nil, damaged("its header does not match its checksum: the file changed after websim wrote it", nil)
	}
	var h PartialHeader
	if err := gob.NewDecoder(bytes.NewReader(raw)).Decode(&h); err != nil {
		return nil, damaged("its header cannot be read", err)
	}
	idx := &partIndex{file: path, header: &h, records: map[int][2]int64{}}
	for {
		tag, err := binary.ReadUvarint(cr)
		if err != nil {
			return nil, damaged(fmt.Sprintf("it ends after %d runs, before its end mark (a shard that did not finish?)", len(idx.order)), nil)
		}
		if tag == 0 {
			n, err := binary.ReadUvarint(cr)
			if err != nil || n != uint64(len(idx.order)) {
				return nil, damaged("its end mark does not count its runs", err)
			}
			if _, err := cr.r.ReadByte(); err != io.EOF {
				return nil, damaged("it goes on after its end mark", err)
			}
			return idx, nil
		}
		task := int(tag - 1)
		size, err := binary.ReadUvarint(cr)
		if err != nil || size > maxFrame || task >= len(h.Tasks) {
			return nil, damaged(fmt.Sprintf("record %d is damaged", len(idx.order)+1), err)
		}
		off := cr.n
		if err := cr.skip(int64(size)); err != nil {
			return nil, damaged(fmt.Sprintf("it ends inside run %s", h.taskName(task)), nil)
		}
		if ok, err := cr.sum(); err != nil {
			return nil, damaged(fmt.Sprintf("it ends inside run %s", h.taskName(task)), nil)
		} else if !ok {
			return nil, damaged(fmt.Sprintf("record %d, run %s, does not match its checksum: the file changed after websim wrote it", len(idx.order)+1, h.taskName(task)), nil)
		}
		if _, dup := idx.records[task]; dup {
			return nil, damaged(fmt.Sprintf("it holds run %s twice", h.taskName(task)), nil)
		}
		idx.records[task] = [2]int64{off, int64(size)}
		idx.order = append(idx.order, task)
	}
}

// formatError is a part of another layout version.
type formatError struct{ got uint64 }

func (e *formatError) Error() string {
	return fmt.Sprintf("partial-file format %d; this websim reads format %d (merge with the websim that ran the shards)", e.got, PartialFormat)
}

// taskName names task i for messages: scenario, load and replication.
func (h *PartialHeader) taskName(i int) string {
	t := h.Tasks[i]
	r := h.Runs[t.Run]
	return fmt.Sprintf("#%d (%s at %s, replication %d)", i, r.Scenario, r.Load, t.Replication+1)
}

// errRecordChanged is a record whose bytes no longer match the checksum
// that the first pass over its file checked.
var errRecordChanged = errors.New("it does not match its checksum: the file changed while it was merged")

// readRecord checks and decodes the record of task at off (length size,
// its checksum after it) of f, reading it into *buf, which it may grow.
func readRecord(f io.ReaderAt, task int, off, size int64, buf *[]byte) (partialRecord, error) {
	var rec partialRecord
	b := slices.Grow((*buf)[:0], int(size)+4)[:size+4]
	*buf = b
	if _, err := f.ReadAt(b, off); err != nil {
		return rec, err
	}
	// The checksum covers the two uvarints before the gob value as well:
	// the first pass read them as task+1 and size.
	var head [2 * binary.MaxVarintLen64]byte
	crc := crc32.Checksum(binary.AppendUvarint(binary.AppendUvarint(head[:0], uint64(task+1)), uint64(size)), partialCRC)
	if crc32.Update(crc, partialCRC, b[:size]) != binary.LittleEndian.Uint32(b[size:]) {
		return rec, errRecordChanged
	}
	err := gob.NewDecoder(bytes.NewReader(b[:size])).Decode(&rec)
	if err == nil && rec.Result == nil {
		err = errors.New("a record without a result")
	}
	return rec, err
}
