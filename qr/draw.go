package qr

import (
	"fmt"
	"image"
	"image/color"
	"strings"
)

// Quiet is the width of the light margin around a symbol, in modules, that
// readers need to find it.
const Quiet = 4

// SVG returns the symbol as a standalone SVG image, one unit a module with
// the quiet zone around it, scaled to the box it is put in; title is its
// accessible name.
func (s *Symbol) SVG(title string) string {
	n := s.Size + 2*Quiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img">`, n, n)
	fmt.Fprintf(&b, `<title>%s</title><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, escapeXML(title), n, n)
	for y := range s.Size {
		for x := 0; x < s.Size; x++ {
			if !s.Dark(x, y) {
				continue
			}
			run := 1
			for x+run < s.Size && s.Dark(x+run, y) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+Quiet, y+Quiet, run, run)
			x += run - 1
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String()
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// Lines returns the symbol drawn for a terminal, two modules a character
// (the upper and lower half blocks), with the quiet zone: dark modules
// are printed as spaces and light ones as blocks, so that it reads as
// dark on light in a terminal of either colour scheme.
func (s *Symbol) Lines() []string {
	var out []string
	for y := -Quiet; y < s.Size+Quiet; y += 2 {
		var b strings.Builder
		for x := -Quiet; x < s.Size+Quiet; x++ {
			top, bottom := !s.Dark(x, y), !s.Dark(x, y+1)
			switch {
			case top && bottom:
				b.WriteRune('█')
			case top:
				b.WriteRune('▀')
			case bottom:
				b.WriteRune('▄')
			default:
				b.WriteByte(' ')
			}
		}
		out = append(out, b.String())
	}
	return out
}

// Image returns the symbol as a grey image, scale pixels a module, with
// the quiet zone.
func (s *Symbol) Image(scale int) *image.Gray {
	n := (s.Size + 2*Quiet) * scale
	img := image.NewGray(image.Rect(0, 0, n, n))
	for py := range n {
		for px := range n {
			c := color.Gray{Y: 255}
			if s.Dark(px/scale-Quiet, py/scale-Quiet) {
				c = color.Gray{}
			}
			img.SetGray(px, py, c)
		}
	}
	return img
}
