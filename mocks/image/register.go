package image

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the image-processing scenario (detection, OCR, image translation, processing, background removal, screenshots) to r.
func Register(r *standin.Registry) {
	// image_background.go
	r.Add("background_removal", "remove_background", removeBackgroundAPI)
	r.Add("background_removal", "get_removal_result", getRemovalResult)

	// image_capture.go
	r.Add("web_capture", "take_screenshot", takeScreenshot)
	r.Add("web_capture", "get_screenshot", getScreenshot)

	// image_detection.go
	r.Add("object_detection", "detect_objects", detectObjects)
	r.Add("object_detection", "list_labels", listLabels)

	// image_ocr.go
	r.Add("ocr_extract_text", "ocr_image_url", ocrImageURL)
	r.Add("ocr_extract_text", "supported_languages", ocrSupportedLanguages)

	// image_processing.go
	r.Add("image_file_processing", "image_info", imageInfo)
	r.Add("image_file_processing", "resize_image", resizeImage)
	r.Add("image_file_processing", "compress_image", compressImage)
	r.Add("image_file_processing", "convert_image_format", convertImageFormat)

	// image_translation.go
	r.Add("image_translation", "translate_image_text", translateImageText)
	r.Add("image_translation", "image_translation_languages", imageTranslationLanguages)
}
