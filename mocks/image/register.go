// Package image holds the stand-ins of the image-processing scenario of the
// built-in toolset: object detection, OCR, image translation, image files,
// background removal, screenshots.
package image

import "github.com/understudy/understudy/mocks/standin"

// Register adds the stand-ins of the image-processing scenario to r: one per API of
// each tool whose x-scenario is image_processing. Registration is explicit, so a
// registry holds exactly what its owner asked for.
func Register(r *standin.Registry) {
	// background_removal
	r.Add("background_removal", "remove_background", removeBackgroundAPI)
	r.Add("background_removal", "get_removal_result", getRemovalResult)

	// web_capture
	r.Add("web_capture", "take_screenshot", takeScreenshot)
	r.Add("web_capture", "get_screenshot", getScreenshot)

	// object_detection
	r.Add("object_detection", "detect_objects", detectObjects)
	r.Add("object_detection", "list_labels", listLabels)

	// ocr_extract_text
	r.Add("ocr_extract_text", "ocr_image_url", ocrImageURL)
	r.Add("ocr_extract_text", "supported_languages", ocrSupportedLanguages)

	// image_file_processing
	r.Add("image_file_processing", "image_info", imageInfo)
	r.Add("image_file_processing", "resize_image", resizeImage)
	r.Add("image_file_processing", "compress_image", compressImage)
	r.Add("image_file_processing", "convert_image_format", convertImageFormat)

	// image_translation
	r.Add("image_translation", "translate_image_text", translateImageText)
	r.Add("image_translation", "image_translation_languages", imageTranslationLanguages)
}
