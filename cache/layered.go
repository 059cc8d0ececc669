package cache

import "errors"

// Layered looks a key up in each reader in turn: typically the user's store
// directory, then the built-in recordings. The first hit wins. A corrupt
// entry in one layer does not hide a good entry in a later one; when no
// layer has the key, the first such error is returned with the miss.
type Layered []Reader

var _ Reader = Layered(nil)

// Get returns the first layer's entry for key.
func (l Layered) Get(key Key) (Entry, bool, error) {
	var first error
	for _, r := range l {
		if r == nil {
			continue
		}
		e, ok, err := r.Get(key)
		if ok {
			return e, true, nil
		}
		if err != nil && first == nil {
			first = err
		}
		var ie *InvalidKeyError
		if errors.As(err, &ie) {
			break // every layer would refuse it
		}
	}
	return Entry{}, false, first
}
