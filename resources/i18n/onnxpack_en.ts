<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%n row(s) were bundled already: %1</source>
        <translation>
            <numerusform>%n row was bundled already: %1</numerusform>
            <numerusform>%n rows were bundled already: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Skip them and bundle the other %n model(s)?</source>
        <translation>
            <numerusform>Skip them and bundle the other %n model?</numerusform>
            <numerusform>Skip them and bundle the other %n models?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n bundle(s) exist already: %1</source>
        <translation>
            <numerusform>%n bundle exists already: %1</numerusform>
            <numerusform>%n bundles exist already: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Bundling is off for this model: %n error finding(s) must be fixed first.</source>
        <translation>
            <numerusform>Bundling is off for this model: %n error finding must be fixed first.</numerusform>
            <numerusform>Bundling is off for this model: %n error findings must be fixed first.</numerusform>
        </translation>
    </message>
</context>
</TS>
