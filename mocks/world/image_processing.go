package world

var MimeTypes = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif"}
