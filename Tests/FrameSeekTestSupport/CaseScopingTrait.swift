// What the test support's traits share: each scopes every test case on its own, and none a
// suite as a whole.

import Testing

/// A trait that provides its scope around each test case of a test or a suite, nested suites
/// included, and none around a suite as a whole, whose cases each get one.
package protocol CaseScopingTrait: TestTrait, SuiteTrait, TestScoping {}

extension CaseScopingTrait {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }
}
