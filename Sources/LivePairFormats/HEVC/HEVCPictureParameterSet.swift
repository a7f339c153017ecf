/// The fields of an HEVC picture parameter set (ITU-T H.265 7.3.2.3.1) up to the ones that say
/// how a picture splits for parallel decoding: tiles, and wavefront parallel processing
/// (`entropy_coding_sync_enabled_flag`: each row of coding tree blocks starts from the entropy
/// state of the row above, so rows decode on several threads at once).
public struct HEVCPictureParameterSet: Sendable, Equatable {
    /// `pps_pic_parameter_set_id`.
    public let identifier: UInt32
    /// `tiles_enabled_flag`.
    public let tilesEnabled: Bool
    /// `entropy_coding_sync_enabled_flag` (wavefront parallel processing).
    public let entropyCodingSyncEnabled: Bool

    /// True when a picture can be decoded on several threads at once (tiles or wavefronts).
    public var splitsPictures: Bool { tilesEnabled || entropyCodingSyncEnabled }

    /// Parses `nalUnit`, a whole PPS NAL unit (two-byte header, type 34) as stored in `hvcC`.
    public init(nalUnit: [UInt8]) throws(FormatError) {
        let context = "HEVC picture parameter set"
        guard nalUnit.count > 2 else {
            throw .truncated(context: context, needed: 3, available: UInt64(nalUnit.count))
        }
        let type = (nalUnit[0] >> 1) & 0x3F
        guard type == 34 else { throw .invalid(context: context, reason: "NAL unit type \(type) is not a PPS (34)") }
        var reader = RBSPBitReader(payload: nalUnit[2...], context: context)
        identifier = try reader.unsignedGolomb()
        _ = try reader.unsignedGolomb()  // pps_seq_parameter_set_id
        _ = try reader.bits(2)  // dependent_slice_segments_enabled_flag, output_flag_present_flag
        _ = try reader.bits(3)  // num_extra_slice_header_bits
        _ = try reader.bits(2)  // sign_data_hiding_enabled_flag, cabac_init_present_flag
        _ = try reader.unsignedGolomb()  // num_ref_idx_l0_default_active_minus1
        _ = try reader.unsignedGolomb()  // num_ref_idx_l1_default_active_minus1
        _ = try reader.signedGolomb()  // init_qp_minus26
        _ = try reader.bits(2)  // constrained_intra_pred_flag, transform_skip_enabled_flag
        if try reader.flag() {  // cu_qp_delta_enabled_flag
            _ = try reader.unsignedGolomb()  // diff_cu_qp_delta_depth
        }
        _ = try reader.signedGolomb()  // pps_cb_qp_offset
        _ = try reader.signedGolomb()  // pps_cr_qp_offset
        // pps_slice_chroma_qp_offsets_present_flag, weighted_pred_flag, weighted_bipred_flag,
        // transquant_bypass_enabled_flag
        _ = try reader.bits(4)
        tilesEnabled = try reader.flag()
        entropyCodingSyncEnabled = try reader.flag()
    }
}

extension HEVCDecoderConfiguration {
    /// The picture parameter sets the record carries (unparsable ones left out).
    public var pictureParameterSets: [HEVCPictureParameterSet] {
        parameterSets.compactMap { nal in
            guard nal.count > 2, (nal[0] >> 1) & 0x3F == 34 else { return nil }
            return try? HEVCPictureParameterSet(nalUnit: nal)
        }
    }
}
