internal import CHeif

/// The one place where libheif objects for encoding are created and freed and its
/// `heif_error`s become `MediaError`s.
enum LibHeif {
    /// Initialises libheif once per process (it keeps a reference count; never deinitialised).
    private static let initialised: Void = { _ = heif_init(nil) }()

    /// Makes sure libheif is initialised before its first use.
    static func prepare() { _ = initialised }

    /// Throws `encodeFailed` naming `operation` unless `error` is `heif_error_Ok`.
    static func check(_ error: heif_error, _ operation: String) throws(MediaError) {
        guard error.code != heif_error_Ok else { return }
        let text = error.message.map { String(cString: $0) } ?? "unknown libheif error"
        throw .encodeFailed(reason: "\(operation): \(text) (libheif error \(error.code.rawValue).\(error.subcode.rawValue))")
    }

    /// Runs `body` with a new context, freed afterwards.
    static func withContext<Result>(_ body: (OpaquePointer) throws(MediaError) -> Result) throws(MediaError) -> Result {
        prepare()
        guard let context = heif_context_alloc() else { throw .encodeFailed(reason: "heif_context_alloc failed") }
        defer { heif_context_free(context) }
        return try body(context)
    }

    /// Runs `body` with `context`'s HEVC encoder, released afterwards.
    static func withHEVCEncoder<Result>(
        _ context: OpaquePointer, _ body: (OpaquePointer) throws(MediaError) -> Result
    ) throws(MediaError) -> Result {
        var encoder: OpaquePointer?
        let error = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder)
        defer { if let encoder { heif_encoder_release(encoder) } }
        guard error.code == heif_error_Ok, let encoder else {
            throw .decoderUnavailable("HEVC encoder in libheif")
        }
        return try body(encoder)
    }

    /// Runs `body` with a new interleaved 8-bit RGB image of `width` x `height`, released afterwards.
    /// `body` receives the image, its pixel plane and the plane's row stride.
    static func withRGBImage<Result>(
        width: Int32, height: Int32, _ body: (OpaquePointer, UnsafeMutablePointer<UInt8>, Int) throws(MediaError) -> Result
    ) throws(MediaError) -> Result {
        var image: OpaquePointer?
        let created = heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image)
        defer { if let image { heif_image_release(image) } }
        try check(created, "heif_image_create")
        guard let image else { throw .encodeFailed(reason: "heif_image_create returned no image") }
        try check(heif_image_add_plane(image, heif_channel_interleaved, width, height, 8), "heif_image_add_plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride), stride > 0 else {
            throw .encodeFailed(reason: "heif_image_get_plane returned no plane")
        }
        return try body(image, plane, Int(stride))
    }

    /// Runs `body` with encoding options (no alpha, normal orientation), freed afterwards.
    /// `writesColour` turns off libheif 1.15's default of writing no `nclx` box (a workaround
    /// for old macOS readers), so that the image's colour description is stored.
    static func withEncodingOptions<Result>(
        writesColour: Bool = false, _ body: (UnsafeMutablePointer<heif_encoding_options>) throws(MediaError) -> Result
    ) throws(MediaError) -> Result {
        guard let options = heif_encoding_options_alloc() else {
            throw .encodeFailed(reason: "heif_encoding_options_alloc failed")
        }
        defer { heif_encoding_options_free(options) }
        options.pointee.save_alpha_channel = 0
        if writesColour {
            guard options.pointee.version >= 4 else {
                throw .encodeFailed(reason: "libheif's encoding options (version \(options.pointee.version)) cannot write nclx")
            }
            options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        }
        return try body(options)
    }

    /// Gives `image` the `nclx` colour description `colour`: libheif converts its RGB to Y'CbCr
    /// with that matrix and range and writes it as the coded image's `colr` box.
    static func setColour(_ colour: ColourDescription, of image: OpaquePointer) throws(MediaError) {
        guard let nclx = heif_nclx_color_profile_alloc() else {
            throw .encodeFailed(reason: "heif_nclx_color_profile_alloc failed")
        }
        defer { heif_nclx_color_profile_free(nclx) }
        try check(heif_nclx_color_profile_set_color_primaries(nclx, colour.colourPrimaries), "nclx colour primaries")
        try check(
            heif_nclx_color_profile_set_transfer_characteristics(nclx, colour.transferCharacteristics),
            "nclx transfer characteristics")
        try check(heif_nclx_color_profile_set_matrix_coefficients(nclx, colour.matrixCoefficients), "nclx matrix coefficients")
        nclx.pointee.full_range_flag = colour.fullRange ? 1 : 0
        try check(heif_image_set_nclx_color_profile(image, nclx), "heif_image_set_nclx_color_profile")
    }

    /// Serialises `context` into memory through a `heif_writer`.
    static func write(_ context: OpaquePointer) throws(MediaError) -> [UInt8] {
        final class Collector { var bytes: [UInt8] = [] }
        let collector = Collector()
        var writer = heif_writer(
            writer_api_version: 1,
            write: { _, data, size, userdata in
                let ok = heif_error(
                    code: heif_error_Ok, subcode: heif_suberror_Unspecified,
                    message: UnsafeRawPointer(StaticString("Success").utf8Start).assumingMemoryBound(to: CChar.self))
                guard let userdata else { return ok }
                let collector = Unmanaged<Collector>.fromOpaque(userdata).takeUnretainedValue()
                if let data, size > 0 {
                    collector.bytes.append(
                        contentsOf: UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size))
                }
                return ok
            })
        let error = withExtendedLifetime(collector) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(collector).toOpaque())
        }
        try check(error, "heif_context_write")
        return collector.bytes
    }
}
