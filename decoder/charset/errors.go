package charset

import "fmt"

// UnknownError reports a label that names no encoding this package can use.
type UnknownError struct {
	Label  string
	Reason string // why, when the label is known but refused; "" for unknown
}

func (e *UnknownError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("charset: label %q refused: %s", e.Label, e.Reason)
	}
	return fmt.Sprintf("charset: unknown label %q", e.Label)
}

// Invalid locates bytes that are not valid in an encoding: Decode replaced
// them with one U+FFFD.
type Invalid struct {
	Offset int // byte offset in the decoded input
	Len    int // number of input bytes the replacement stands for
}

// InvalidError is the strict form of an Invalid: the first invalid bytes.
type InvalidError struct {
	Charset string
	Offset  int
	Bytes   []byte
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("charset: bytes % X at offset %d are invalid in %s", e.Bytes, e.Offset, e.Charset)
}

// UnencodableError reports a character the target encoding has no bytes for.
type UnencodableError struct {
	Charset string
	Rune    rune
	Offset  int // byte offset of the rune in the input string
}

func (e *UnencodableError) Error() string {
	return fmt.Sprintf("charset: %U at offset %d cannot be encoded in %s", e.Rune, e.Offset, e.Charset)
}
