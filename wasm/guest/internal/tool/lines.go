package tool

import (
	"bufio"
	"io"
)

// A LineReader reads delimited lines without allocating per line: the
// slice Line returns stays valid only until the next call.
type LineReader struct {
	br    *bufio.Reader
	delim byte
	long  []byte // a line longer than the buffer, assembled
	err   error
}

// NewLineReader returns a LineReader of r with a 64 KiB buffer; lines end
// at delim.
func NewLineReader(r io.Reader, delim byte) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, 64<<10), delim: delim}
}

// Line returns the next line with its delimiter, if it has one. At the end
// of the input it returns an empty line and io.EOF; a read error is
// returned once the lines before it are consumed, with an empty line.
func (l *LineReader) Line() ([]byte, error) {
	if l.err != nil {
		return nil, l.err
	}
	line, err := l.br.ReadSlice(l.delim)
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.br.ReadSlice(l.delim)
			l.long = append(l.long, line...)
		}
		line = l.long
	}
	if err != nil {
		l.err = err
		if len(line) > 0 {
			return line, nil
		}
		return nil, err
	}
	return line, nil
}
