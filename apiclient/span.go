package apiclient

import "errors"

// The span scanner finds where values start and end in a JSON body, so that
// Raw can be the record's own bytes as sent instead of a re-encoding.
// fastjson validates the body first and has no notion of offsets; the scanner
// only tracks strings and brackets, which lets it skip the bulk of a body
// (string contents) with bytes.IndexByte.

// span is a half-open byte range [start, end) of a body.
type span struct{ start, end int }

var errSpan = errors.New("json structure does not match the parsed document")

// skipWS returns the index of the first non-whitespace byte at or after i.
func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string whose opening quote is
// at b[i]. A byte loop beats bytes.IndexByte here: record strings are short.
func skipString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1, nil
		case '\\':
			i++ // the escaped byte, which may be a quote
		}
	}
	return 0, errSpan
}

// skipValue returns the index just past the value starting at b[i], which
// must not be whitespace.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errSpan
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
	default:
		// A number or a literal: everything up to the next delimiter.
		for i < len(b) {
			switch b[i] {
			case ',', ']', '}', ' ', '\t', '\n', '\r', ':':
				return i, nil
			}
			i++
		}
		return i, nil
	}
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			j, err := skipString(b, i)
			if err != nil {
				return 0, err
			}
			i = j
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		}
		i++
	}
	return 0, errSpan
}

// memberSpan returns the span of the value of the idx-th member (0-based) of
// the object that is the whole of body.
func memberSpan(body []byte, idx int) (span, error) {
	return memberSpanAt(body, skipWS(body, 0), idx)
}

// memberSpanAt returns the span of the value of the idx-th member (0-based)
// of the object that starts at body[start].
func memberSpanAt(body []byte, start, idx int) (span, error) {
	i := start
	if i >= len(body) || body[i] != '{' {
		return span{}, errSpan
	}
	i++
	for n := 0; ; n++ {
		i = skipWS(body, i)
		if i >= len(body) || body[i] != '"' {
			return span{}, errSpan
		}
		j, err := skipString(body, i)
		if err != nil {
			return span{}, err
		}
		i = skipWS(body, j)
		if i >= len(body) || body[i] != ':' {
			return span{}, errSpan
		}
		i = skipWS(body, i+1)
		end, err := skipValue(body, i)
		if err != nil {
			return span{}, err
		}
		if n == idx {
			return span{i, end}, nil
		}
		i = skipWS(body, end)
		if i >= len(body) || body[i] != ',' {
			return span{}, errSpan
		}
		i++
	}
}

// elementSpans appends to dst the spans of the elements of the array that
// starts at body[start].
func elementSpans(body []byte, start int, dst []span) ([]span, error) {
	dst, _, err := arraySpans(body, start, dst)
	return dst, err
}

// arraySpans appends to dst the spans of the elements of the array that
// starts at body[start], and returns the index just past the array: what
// skipValue returns, found by the same scan.
func arraySpans(body []byte, start int, dst []span) ([]span, int, error) {
	i := start
	if i >= len(body) || body[i] != '[' {
		return dst, 0, errSpan
	}
	i = skipWS(body, i+1)
	if i < len(body) && body[i] == ']' {
		return dst, i + 1, nil
	}
	for {
		i = skipWS(body, i)
		end, err := skipValue(body, i)
		if err != nil {
			return dst, 0, err
		}
		dst = append(dst, span{i, end})
		i = skipWS(body, end)
		if i >= len(body) {
			return dst, 0, errSpan
		}
		switch body[i] {
		case ',':
			i++
		case ']':
			return dst, i + 1, nil
		default:
			return dst, 0, errSpan
		}
	}
}

// rootSpan returns the span of the whole body without surrounding
// whitespace.
func rootSpan(body []byte) span {
	start := skipWS(body, 0)
	end := len(body)
	for end > start {
		switch body[end-1] {
		case ' ', '\t', '\n', '\r':
			end--
			continue
		}
		break
	}
	return span{start, end}
}
