/// Small models (`<entity>` elements) the staged-migration rules' examples are made of.
public enum StageExampleModels {
    public static let title = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    public static let titleBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    public static let untitled = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    public static let numericTitle = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#
    public static let heading = #"<entity name="Note"><attribute name="heading" optional="YES" attributeType="String" elementID="title"/></entity>"#
    public static let caption = #"<entity name="Note"><attribute name="caption" optional="YES" attributeType="String" elementID="heading"/></entity>"#
    public static let three = [title, titleBody, titleBody + "\n" + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#]
}
