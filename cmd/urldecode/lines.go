package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// lineReader reads lines through one fixed buffer, so that memory stays
// bounded whatever the input: a line longer than the buffer is skipped
// and reported, and reading goes on with the next.
type lineReader struct {
	br  *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, max), max: max}
}

// lineTooLongError reports a skipped line.
type lineTooLongError struct{ Max int }

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("line longer than %d bytes, skipped", e.Max)
}

// next returns the next line without its "\n" or "\r\n", valid until the
// following call; a *lineTooLongError for a skipped line; io.EOF at the
// end. A last line without a newline is a line.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		for err == bufio.ErrBufferFull {
			_, err = l.br.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, &lineTooLongError{l.max}
	}
	if len(line) == 0 && err != nil {
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}
