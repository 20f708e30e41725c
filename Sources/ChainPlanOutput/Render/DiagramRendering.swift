import ChainPlanCore
import Foundation

extension Diagram {
    /// The diagram as JSON in chainplan's envelope: pretty-printed, keys sorted, absent optionals omitted.
    ///
    /// The same diagram always gives the same bytes. The structure is the Codable form of
    /// ``Diagram``: `title`, `showLegend`, `nodes` (`id`, the flags, `note`) and `edges`
    /// (`from`, `to`, `kind`, the flags, `label`).
    package func jsonData() throws -> Data {
        JSONEnvelope.encode(self)
    }

    /// The diagram in any ``RenderFormat``.
    ///
    /// `.dot` is the writer's DOT text, `.json` is ``jsonData()``, and `.svg`, `.png` and
    /// `.pdf` are laid out by ``GraphvizRenderer`` (blocking the caller; see its limits).
    package func rendered(
        as format: RenderFormat,
        writer: DOTWriter = DOTWriter(),
        limits: GraphvizRenderer.Limits = GraphvizRenderer.Limits()
    ) throws -> Data {
        switch format {
        case .json:
            return try jsonData()
        case .dot:
            return Data(writer.write(self).utf8)
        case .svg, .png, .pdf:
            return try GraphvizRenderer.render(dot: writer.write(self), format: format, limits: limits)
        }
    }
}
