package world

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// bkKey is a photo URL's signature parameter: 64 hex characters.
func HotelKey(parts ...string) string {
	s := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(s[:])
}
