import HTTPTypes
import Hummingbird

/// Responses whose body is text, as the routes build them: JSON, problems, other text.
enum TextResponse {
    /// A 200 (or `status`) response with `text` and its content type.
    static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok, headers: [(String, String)] = []) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = contentType
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A JSON response; `json` is JSON text already.
    static func json(_ json: String, status: HTTPResponse.Status = .ok, headers: [(String, String)] = []) -> Response {
        text(json + "\n", contentType: "application/json", status: status, headers: headers)
    }

    /// The problem as `application/problem+json`, with its extra headers.
    static func problem(_ problem: Problem) -> Response {
        text(problem.json, contentType: "application/problem+json", status: HTTPResponse.Status(code: problem.status), headers: problem.headers)
    }
}
