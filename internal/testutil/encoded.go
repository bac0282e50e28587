package testutil

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strings"
)

var (
	base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{4,}`)
	hexRun    = regexp.MustCompile(`[0-9a-fA-F]{4,}`)
)

// EncodedSecret returns one of secrets that text holds as it stands or in
// a common encoding, and which ("plain", "base64", "hex", "percent"),
// decoded here independently of the redactor: every run of base64
// characters at each of its four character offsets (either alphabet,
// padding or not), every run of hex digits at both offsets, and text with
// its %XX escapes (either case) and "+" decoded. It returns "", "" when
// text decodes to none.
func EncodedSecret(text string, secrets []string) (secret, how string) {
	found := func(b []byte) string {
		for _, s := range secrets {
			if s != "" && bytes.Contains(b, []byte(s)) {
				return s
			}
		}
		return ""
	}
	if s := found([]byte(text)); s != "" {
		return s, "plain"
	}
	for _, run := range base64Run.FindAllString(text, -1) {
		std := strings.NewReplacer("-", "+", "_", "/").Replace(run)
		for off := range 4 {
			p := std[min(off, len(std)):]
			if len(p)%4 == 1 { // a lone last character holds no whole byte
				p = p[:len(p)-1]
			}
			if b, err := base64.RawStdEncoding.DecodeString(p); err == nil {
				if s := found(b); s != "" {
					return s, "base64"
				}
			}
		}
	}
	for _, run := range hexRun.FindAllString(text, -1) {
		for off := range 2 {
			p := run[off:]
			if b, err := hex.DecodeString(p[:len(p)/2*2]); err == nil {
				if s := found(b); s != "" {
					return s, "hex"
				}
			}
		}
	}
	var dec []byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '%' && i+2 < len(text) {
			if b, err := hex.DecodeString(text[i+1 : i+3]); err == nil {
				dec = append(dec, b[0])
				i += 2
				continue
			}
		}
		if c == '+' {
			c = ' '
		}
		dec = append(dec, c)
	}
	if s := found(dec); s != "" {
		return s, "percent"
	}
	return "", ""
}
