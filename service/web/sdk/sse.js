// A Server-Sent Events parser (the WHATWG "event stream" format), fed text chunks as they
// arrive from a fetch body: EventSource cannot send an Authorization header, fetch can.
export class SseParser {
    buffer = "";
    event = "";
    data = [];
    lastId = "";
    /** Feeds a chunk; returns the events it completes, in order. */
    feed(chunk) {
        this.buffer += chunk;
        const events = [];
        for (;;) {
            const match = /\r\n|\r|\n/.exec(this.buffer);
            // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
            if (!match || (match[0] === "\r" && match.index === this.buffer.length - 1))
                break;
            const line = this.buffer.slice(0, match.index);
            this.buffer = this.buffer.slice(match.index + match[0].length);
            const event = this.line(line);
            if (event)
                events.push(event);
        }
        return events;
    }
    line(line) {
        if (line === "") {
            if (this.data.length === 0) {
                this.event = "";
                return null;
            }
            const event = { event: this.event || "message", data: this.data.join("\n"), id: this.lastId };
            this.event = "";
            this.data = [];
            return event;
        }
        if (line.startsWith(":"))
            return null; // a comment: the server's keep-alive
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" "))
            value = value.slice(1);
        if (field === "event")
            this.event = value;
        else if (field === "data")
            this.data.push(value);
        else if (field === "id" && !value.includes("\0"))
            this.lastId = value;
        return null;
    }
}
