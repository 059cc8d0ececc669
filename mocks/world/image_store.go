package world

import ()

// thumbURL is the URL of a catalog image's thumbnail.
func ThumbURL(name string) string { return "https://" + ImageHost + "/thumbs/" + name + ".jpg" }
