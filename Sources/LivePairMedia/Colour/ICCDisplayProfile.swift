/// An ICC version 4.3 RGB display profile built from H.273 code points: what a JPEG still made
/// from a movie frame carries (APP2 `ICC_PROFILE`) so that readers know its primaries and
/// transfer curve, as the HEIC still's `nclx` `colr` box says them.
///
/// The profile is a matrix/TRC display profile (`mntr`, RGB to XYZ): `rXYZ`, `gXYZ`, `bXYZ` are
/// the primaries' XYZ adapted from the D65 white to the D50 connection space with the Bradford
/// transform (also stored as `chad`), `wtpt` is D50 (ICC.1:2022, 9.2.36), and the three TRCs are
/// one `para` curve (function type 3): the inverse of the BT.709 OETF for transfer 1 (and its
/// equals 6, 14, 15), the sRGB curve for 13. Built like Apple's Display P3 profile, whose
/// primaries columns it reproduces (within the fixed-point precision) for code point 12.
public enum ICCDisplayProfile {
    /// Chromaticities (x, y) of red, green, blue and white.
    struct Chromaticities {
        let red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)
    }

    /// The profile for `colour`'s primaries and transfer, or nil when either is not one this
    /// builder can state exactly (primaries 1, 9, 12; transfer 1, 6, 13, 14, 15).
    public static func profile(for colour: ColourDescription) -> [UInt8]? {
        guard let primaries = chromaticities(colour.colourPrimaries),
            let curve = curveParameters(colour.transferCharacteristics),
            let name = description(colour)
        else { return nil }
        return build(name: name, primaries: primaries, curve: curve)
    }

    /// The profile's description text (`desc`): "Display P3 (BT.709 transfer)" and the like.
    static func description(_ colour: ColourDescription) -> String? {
        let primaries: String
        switch colour.colourPrimaries {
        case 1: primaries = "BT.709"
        case 9: primaries = "BT.2020"
        case 12: primaries = "Display P3"
        default: return nil
        }
        switch colour.transferCharacteristics {
        case 13: return "\(primaries) (sRGB transfer)"
        case 1, 6, 14, 15: return "\(primaries) (BT.709 transfer)"
        default: return nil
        }
    }

    /// H.273 primaries as chromaticities, all with the D65 white.
    static func chromaticities(_ code: UInt16) -> Chromaticities? {
        let d65 = (0.3127, 0.3290)
        switch code {
        case 1: return Chromaticities(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: d65)
        case 9: return Chromaticities(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65)
        case 12: return Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65)
        default: return nil
        }
    }

    /// The `para` function type 3 parameters g, a, b, c, d (Y = (aX + b)^g for X >= d, else cX).
    static func curveParameters(_ code: UInt16) -> [Double]? {
        switch code {
        // BT.709's OETF V = 1.099 L^0.45 - 0.099 (L >= 0.018), else 4.5 L, inverted.
        case 1, 6, 14, 15: return [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        case 13: return [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        default: return nil
        }
    }

    /// The ICC connection space's white, D50 (ICC.1, 7.2.16).
    static let d50 = [0.9642, 1.0, 0.8249]

    /// The Bradford cone response matrix.
    static let bradford = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]

    /// The RGB to XYZ (D50-adapted) matrix columns and the adaptation matrix.
    static func matrices(_ primaries: Chromaticities) -> (columns: [[Double]], adaptation: [[Double]]) {
        func xyz(_ chromaticity: (Double, Double)) -> [Double] {
            [chromaticity.0 / chromaticity.1, 1, (1 - chromaticity.0 - chromaticity.1) / chromaticity.1]
        }
        let (r, g, b) = (xyz(primaries.red), xyz(primaries.green), xyz(primaries.blue))
        let white = xyz(primaries.white)
        let unscaled = [[r[0], g[0], b[0]], [r[1], g[1], b[1]], [r[2], g[2], b[2]]]
        let scale = multiply(invert(unscaled), white.map { [$0] }).map { $0[0] }
        let rgbToXYZ = unscaled.map { row in (0..<3).map { row[$0] * scale[$0] } }
        let source = multiply(bradford, white.map { [$0] }).map { $0[0] }
        let destination = multiply(bradford, d50.map { [$0] }).map { $0[0] }
        let gains = (0..<3).map { row in (0..<3).map { $0 == row ? destination[row] / source[row] : 0 } }
        let adaptation = multiply(invert(bradford), multiply(gains, bradford))
        let adapted = multiply(adaptation, rgbToXYZ)
        return ((0..<3).map { column in (0..<3).map { adapted[$0][column] } }, adaptation)
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        a.map { row in (0..<b[0].count).map { column in (0..<b.count).reduce(0) { $0 + row[$1] * b[$1][column] } } }
    }

    static func invert(_ m: [[Double]]) -> [[Double]] {
        let determinant = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        func minor(_ r: Int, _ c: Int) -> Double {
            let rows = (0..<3).filter { $0 != r }, columns = (0..<3).filter { $0 != c }
            return m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
        }
        return (0..<3).map { row in
            (0..<3).map { column in ((row + column) % 2 == 0 ? 1 : -1) * minor(column, row) / determinant }
        }
    }
}
