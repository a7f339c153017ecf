// `import LivePair` keeps giving everything it gave before the split: identity, pairing and
// validation live in `LivePairCore` (no C library), re-exported here.
@_exported public import LivePairCore
