import LivePairS3
import Testing

/// `S3Configuration.fromEnvironment`: credentials, region, and the timeouts and attempts a
/// deployment sets (`LIVEPAIR_S3_*`, docs/deployment.md), read from a given environment.
@Suite struct S3ConfigurationEnvironmentTests {
    static let credentials = ["AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret"]

    @Test("the defaults: 5 s connects, 30 s stalls, 4 attempts, us-east-1")
    func defaults() throws {
        let configuration = try S3Configuration.fromEnvironment(endpoint: "http://s3.internal:8333/", variables: Self.credentials)
        #expect(configuration.endpoint == "http://s3.internal:8333")
        #expect(configuration.region == "us-east-1")
        #expect(configuration.credentials == S3Credentials(accessKeyID: "key", secretAccessKey: "secret"))
        #expect(configuration.connectTimeoutMilliseconds == 5_000)
        #expect(configuration.stallTimeoutSeconds == 30)
        #expect(configuration.retry.attempts == 4)
    }

    @Test("LIVEPAIR_S3_CONNECT_TIMEOUT, _STALL_TIMEOUT and _ATTEMPTS set them; AWS_REGION, else AWS_DEFAULT_REGION, the region")
    func variablesSetThem() throws {
        let set = Self.credentials.merging([
            "LIVEPAIR_S3_CONNECT_TIMEOUT": "1", "LIVEPAIR_S3_STALL_TIMEOUT": "3", "LIVEPAIR_S3_ATTEMPTS": "2",
            "AWS_DEFAULT_REGION": "eu-west-3",
        ]) { $1 }
        let configuration = try S3Configuration.fromEnvironment(endpoint: "http://s3.internal:8333", variables: set)
        #expect(configuration.connectTimeoutMilliseconds == 1_000)
        #expect(configuration.stallTimeoutSeconds == 3)
        #expect(configuration.retry.attempts == 2)
        #expect(configuration.region == "eu-west-3")
        let regional = try S3Configuration.fromEnvironment(
            endpoint: "http://s3.internal:8333", variables: set.merging(["AWS_REGION": "us-west-2"]) { $1 })
        #expect(regional.region == "us-west-2")
        let fraction = try S3Configuration.fromEnvironment(
            endpoint: "http://s3.internal:8333", variables: set.merging(["LIVEPAIR_S3_CONNECT_TIMEOUT": "0.25"]) { $1 })
        #expect(fraction.connectTimeoutMilliseconds == 250)
    }

    @Test("a value that is not a positive number is ignored", arguments: ["0", "-3", "soon", "", "inf", "nan", "1e12"])
    func badValuesAreIgnored(text: String) throws {
        let set = Self.credentials.merging([
            "LIVEPAIR_S3_CONNECT_TIMEOUT": text, "LIVEPAIR_S3_STALL_TIMEOUT": text, "LIVEPAIR_S3_ATTEMPTS": text,
        ]) { $1 }
        let configuration = try S3Configuration.fromEnvironment(endpoint: "http://s3.internal:8333", variables: set)
        #expect(configuration.connectTimeoutMilliseconds == 5_000)
        #expect(configuration.stallTimeoutSeconds == 30)
        #expect(configuration.retry.attempts == 4)
    }

    @Test("missing or empty credentials are a missingCredentials error naming the variable")
    func missingCredentials() {
        for (variables, name) in [
            ([String: String](), "AWS_ACCESS_KEY_ID"), (["AWS_ACCESS_KEY_ID": "key"], "AWS_SECRET_ACCESS_KEY"),
            (["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "secret"], "AWS_ACCESS_KEY_ID"),
        ] {
            #expect {
                _ = try S3Configuration.fromEnvironment(endpoint: "http://s3.internal:8333", variables: variables)
            } throws: { error in
                guard let error = error as? S3Error else { return false }
                return error.kind == .missingCredentials && error.description.contains(name)
            }
        }
    }
}
