import ArgumentParser

/// `SPEC FROM TO`: the input and two of its versions, the positional arguments of the commands
/// that look at one pair of versions (`explain`, `passes`).
struct VersionPairArguments: ParsableArguments {
    @Argument(help: "A chain spec with a model, or an .xcdatamodeld bundle.")
    var spec: String

    @Argument(help: "The source version.")
    var from: String

    @Argument(help: "The destination version.")
    var to: String
}
