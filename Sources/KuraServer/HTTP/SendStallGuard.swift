import NIOCore

/// Closes a connection whose client stopped reading what the server sends: once the bytes waiting
/// to go out pass the channel's high-water mark, the channel turns unwritable, and if it stays so
/// for `timeout` (`server.sendIdleTimeout`) the connection is closed. Closing fails the response's
/// pending write, so a streamed export or change feed ends and lets go of its worker and its read
/// transaction. A client that reads, however slowly, drains the buffer now and then and is left alone.
final class SendStallGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            deadline?.cancel()
            deadline = nil
        } else if deadline == nil {
            let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                deadline = nil
                let context = loopBoundContext.value
                if !context.channel.isWritable { context.close(promise: nil) }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
