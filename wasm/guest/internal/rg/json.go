package rg

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// jsonData writes {"text":...} for valid UTF-8, {"bytes":base64} otherwise,
// as ripgrep's JSON printer does.
func jsonData(b *strings.Builder, data []byte) {
	if !utf8.Valid(data) {
		b.WriteString(`{"bytes":"`)
		b.WriteString(base64.StdEncoding.EncodeToString(data))
		b.WriteString(`"}`)
		return
	}
	b.WriteString(`{"text":`)
	jsonString(b, string(data))
	b.WriteString("}")
}

// jsonString writes s as a JSON string escaped the way serde_json escapes:
// only quotes, backslashes and control characters.
func jsonString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				fmt.Fprintf(b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// emit writes one JSON message and counts its bytes as printed.
func (p *printer) emit(b *strings.Builder) {
	b.WriteByte('\n')
	p.st.bytesPrinted += b.Len()
	p.r.out.WriteString(b.String())
}

func (p *printer) begin() {
	if p.begun {
		return
	}
	p.begun = true
	var b strings.Builder
	b.WriteString(`{"type":"begin","data":{"path":`)
	jsonData(&b, []byte(p.path))
	b.WriteString("}}")
	p.emit(&b)
}

// jsonLine writes a "match" or "context" message.
func (p *printer) jsonLine(kind string, n int, l line, spans [][2]int) {
	p.begin()
	var b strings.Builder
	b.WriteString(`{"type":"` + kind + `","data":{"path":`)
	jsonData(&b, []byte(p.path))
	b.WriteString(`,"lines":`)
	jsonData(&b, p.data[l.start:l.next])
	b.WriteString(`,"line_number":`)
	if p.r.o.lineNumber == 0 {
		b.WriteString("null")
	} else {
		b.WriteString(strconv.Itoa(n + 1))
	}
	b.WriteString(`,"absolute_offset":` + strconv.Itoa(l.start) + `,"submatches":[`)
	text := p.data[l.start:l.end]
	for i, s := range spans {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"match":`)
		jsonData(&b, text[s[0]:s[1]])
		if p.r.o.replace != nil {
			b.WriteString(`,"replacement":`)
			jsonData(&b, p.r.m.expand(*p.r.o.replace, text[s[0]:s[1]]))
		}
		b.WriteString(`,"start":` + strconv.Itoa(s[0]) + `,"end":` + strconv.Itoa(s[1]) + "}")
	}
	b.WriteString("]}}")
	p.emit(&b)
}

func elapsed(d time.Duration, sortedKeys bool) string {
	secs, nanos := int64(d/time.Second), int64(d%time.Second)
	human := fmt.Sprintf("%.6fs", d.Seconds())
	if sortedKeys {
		return fmt.Sprintf(`{"human":"%s","nanos":%d,"secs":%d}`, human, nanos, secs)
	}
	return fmt.Sprintf(`{"secs":%d,"nanos":%d,"human":"%s"}`, secs, nanos, human)
}

// end writes the "end" message of a file that matched.
func (p *printer) end() {
	st := p.st
	var b strings.Builder
	b.WriteString(`{"type":"end","data":{"path":`)
	jsonData(&b, []byte(p.path))
	b.WriteString(`,"binary_offset":`)
	if st.firstBinaryOff >= 0 {
		b.WriteString(strconv.Itoa(st.firstBinaryOff))
	} else {
		b.WriteString("null")
	}
	fmt.Fprintf(&b, `,"stats":{"elapsed":%s,"searches":%d,"searches_with_match":%d,"bytes_searched":%d,"bytes_printed":%d,"matched_lines":%d,"matches":%d}}}`+"\n",
		elapsed(st.elapsed, false), st.searches, st.withMatch, st.bytesSearched, st.bytesPrinted, st.matchedLines, st.matches)
	p.r.out.WriteString(b.String())
}

// summary writes the final "summary" message; its keys are sorted, as
// ripgrep writes it.
func (r *run) summary() {
	t := &r.total
	fmt.Fprintf(r.out, `{"data":{"elapsed_total":%s,"stats":{"bytes_printed":%d,"bytes_searched":%d,"elapsed":%s,"matched_lines":%d,"matches":%d,"searches":%d,"searches_with_match":%d}},"type":"summary"}`+"\n",
		elapsed(time.Since(r.start), true), t.bytesPrinted, t.bytesSearched, elapsed(t.elapsed, true), t.matchedLines, t.matches, t.searches, t.withMatch)
}
