/// Small models (`<entity>` elements) the classification rules' examples are made of.
public enum StepExampleModels {
    public static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    public static let pinnedNoDefault = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="pinned" attributeType="Boolean"/></entity>"#
    public static let pinnedWithDefault = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/></entity>"#
    public static let tag = #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    public static let folder = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    public static let toManyTags = note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag
    public static let toOneTags = note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag
}
