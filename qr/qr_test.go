package qr

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReedSolomon checks the error correction against the worked example
// of version 1-M in the public QR tutorials (the data codewords of
// "HELLO WORLD" and their ten error correction codewords).
func TestReedSolomon(t *testing.T) {
	data := []byte{32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17}
	want := []byte{196, 35, 39, 119, 235, 215, 231, 226, 93, 23}
	if got := reedSolomon(data, 10); !slices.Equal(got, want) {
		t.Errorf("reedSolomon = %v, want %v", got, want)
	}
}

// TestFormatBits checks the format information of level M against the
// standard's table (ISO/IEC 18004 annex C: M with mask 0 is
// 101010000010010, mask 5 100000011001110).
func TestFormatBits(t *testing.T) {
	for mask, want := range map[int]string{0: "101010000010010", 5: "100000011001110", 4: "100010111111001", 7: "100101010100000"} {
		s := newSymbol(1)
		s.format(mask)
		// The first copy, bits 14 … 0 from (0,8) across to (8,8) and up.
		var got strings.Builder
		for _, p := range [][2]int{{0, 8}, {1, 8}, {2, 8}, {3, 8}, {4, 8}, {5, 8}, {7, 8}, {8, 8}, {8, 7}, {8, 5}, {8, 4}, {8, 3}, {8, 2}, {8, 1}, {8, 0}} {
			if s.Dark(p[0], p[1]) {
				got.WriteByte('1')
			} else {
				got.WriteByte('0')
			}
		}
		if got.String() != want {
			t.Errorf("mask %d: format bits %s, want %s", mask, got.String(), want)
		}
	}
}

// TestVersionBits checks the version information of version 7 against the
// standard's table (annex D: 000111110010010100).
func TestVersionBits(t *testing.T) {
	s := newSymbol(7)
	var got []byte
	for i := 17; i >= 0; i-- {
		if s.Dark(s.Size-11+i%3, i/3) {
			got = append(got, '1')
		} else {
			got = append(got, '0')
		}
	}
	if string(got) != "000111110010010100" {
		t.Errorf("version 7 bits %s", got)
	}
}

func TestVersionChosen(t *testing.T) {
	for _, tc := range []struct{ n, version int }{
		{0, 1}, {14, 1}, {15, 2}, {26, 2}, {42, 3}, {62, 4}, {84, 5}, {106, 6}, {122, 7}, {152, 8}, {180, 9}, {181, 10}, {213, 10},
	} {
		s, err := Encode(strings.Repeat("a", tc.n))
		if err != nil {
			t.Fatalf("%d bytes: %v", tc.n, err)
		}
		if s.Version != tc.version || s.Size != 17+4*tc.version {
			t.Errorf("%d bytes: version %d size %d, want version %d", tc.n, s.Version, s.Size, tc.version)
		}
	}
	if _, err := Encode(strings.Repeat("a", MaxText+1)); !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "MaxText") {
		t.Errorf("over MaxText: %v", err)
	}
}

// TestDecodes draws symbols of every version and has an independent
// reader, zbarimg (Debian's zbar-tools, which ./scripts/test installs),
// read them back.
func TestDecodes(t *testing.T) {
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("zbarimg is missing (CI=true: ./scripts/test installs Debian's zbar-tools)")
		}
		t.Skip("zbarimg is missing: apt-get install zbar-tools (./scripts/test installs it)")
	}
	dir := t.TempDir()
	texts := []string{
		"",
		"A",
		"http://192.168.1.20:8080/play.html#e=38872dcd85a5e2bd27b8&t=p88-pA2CVS8G4zDC93HNJWDIZZKYdZRHkmqP0epFMe4",
		"Ganyeka's henchmen — ½ Endurance, ✓",
	}
	// Each version full, and one byte into it.
	for _, n := range []int{14, 15, 26, 27, 42, 43, 62, 63, 84, 85, 106, 107, 122, 123, 152, 153, 180, 181, MaxText} {
		texts = append(texts, strings.Repeat("0123456789abcdefghij", 11)[:n])
	}
	versions := map[int]bool{}
	for i, text := range texts {
		s, err := Encode(text)
		if err != nil {
			t.Fatal(err)
		}
		versions[s.Version] = true
		var buf bytes.Buffer
		if err := png.Encode(&buf, s.Image(4)); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "code.png")
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(zbar, "--raw", "-q", "-Sbinary", file).Output()
		if err != nil {
			t.Errorf("text %d (%d bytes, version %d, mask %d): zbarimg could not read it: %v", i, len(text), s.Version, s.Mask, err)
			continue
		}
		if got := string(out); got != text && strings.TrimSuffix(got, "\n") != text {
			t.Errorf("text %d: read back %q, want %q", i, got, text)
		}
	}
	if len(versions) < 10 {
		t.Errorf("only versions %v were read back; want all ten", versions)
	}
}

func TestSVGAndLines(t *testing.T) {
	s, err := Encode("fray")
	if err != nil {
		t.Fatal(err)
	}
	svg := s.SVG(`Player link for "Ann" & co`)
	for _, want := range []string{`viewBox="0 0 29 29"`, `<title>Player link for &quot;Ann&quot; &amp; co</title>`, `M4 4h7v1h-7z`} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %s:\n%s", want, svg)
		}
	}
	lines := s.Lines()
	if len(lines) != 15 {
		t.Fatalf("%d lines, want 15 (29 modules, two a line)", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n != 29 {
			t.Errorf("a line of %d characters, want 29: %q", n, l)
		}
	}
	// The top of the finder: the quiet zone's blocks, then row 4 dark over
	// row 5 (light only inside the finder's ring).
	if lines[0] != strings.Repeat("█", 29) || !strings.HasPrefix(lines[2], "████ ") {
		t.Errorf("top lines:\n%s\n%s\n%s", lines[0], lines[1], lines[2])
	}
}
