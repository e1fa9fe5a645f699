<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>LoadsBox</name>
    <message numerus="yes">
        <source>Loaded the ways apps load a model, in the smoke run (onnxruntime %1): %n way(s) passed, each giving the reference outputs bit for bit.</source>
        <translation>
            <numerusform>Loaded the ways apps load a model, in the smoke run (onnxruntime %1): %n way passed, giving the reference outputs bit for bit.</numerusform>
            <numerusform>Loaded the ways apps load a model, in the smoke run (onnxruntime %1): %n ways passed, each giving the reference outputs bit for bit.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n way(s) FAILED: an app loading the model that way fails too; see how to fix each.</source>
        <translation>
            <numerusform>%n way FAILED: an app loading the model that way fails too; see how to fix it.</numerusform>
            <numerusform>%n ways FAILED: an app loading the model those ways fails too; see how to fix each.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%1: %n finding(s).</source>
        <translation>
            <numerusform>%1: %n finding.</numerusform>
            <numerusform>%1: %n findings.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n model(s), each queued on its own.</source>
        <translation>
            <numerusform>%1: %n model, each queued on its own.</numerusform>
            <numerusform>%1: %n models, each queued on its own.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n model(s), each on its own row.</source>
        <translation>
            <numerusform>%1: %n model, each on its own row.</numerusform>
            <numerusform>%1: %n models, each on its own row.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Inspected %1: %n finding(s).</source>
        <translation>
            <numerusform>Inspected %1: %n finding.</numerusform>
            <numerusform>Inspected %1: %n findings.</numerusform>
        </translation>
    </message>
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
        <source>Bundling is off for this release: %n error finding(s) must be fixed first.</source>
        <translation>
            <numerusform>Bundling is off for this release: %n error finding must be fixed first.</numerusform>
            <numerusform>Bundling is off for this release: %n error findings must be fixed first.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Bundling is off for this model: %n error finding(s) must be fixed first.</source>
        <translation>
            <numerusform>Bundling is off for this model: %n error finding must be fixed first.</numerusform>
            <numerusform>Bundling is off for this model: %n error findings must be fixed first.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) · %1 running · %2 queued · %3 bundled</source>
        <translation>
            <numerusform>%n item · %1 running · %2 queued · %3 bundled</numerusform>
            <numerusform>%n items · %1 running · %2 queued · %3 bundled</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) being checked</source>
        <translation>
            <numerusform>%n row being checked</numerusform>
            <numerusform>%n rows being checked</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) with warnings</source>
        <translation>
            <numerusform>%n row with warnings</numerusform>
            <numerusform>%n rows with warnings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelPanel</name>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ready to bundle, with %n warning(s) — see Findings.</source>
        <translation>
            <numerusform>Ready to bundle, with %n warning — see Findings.</numerusform>
            <numerusform>Ready to bundle, with %n warnings — see Findings.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s), %1 (%2 in external data)</source>
        <translation>
            <numerusform>%n tensor, %1 (%2 in external data)</numerusform>
            <numerusform>%n tensors, %1 (%2 in external data)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n node</numerusform>
            <numerusform>%n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n kind(s): %2</source>
        <translation>
            <numerusform>%1 of %n kind: %2</numerusform>
            <numerusform>%1 of %n kinds: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Verification failed: %n problem(s) — see Findings.</source>
        <translation>
            <numerusform>Verification failed: %n problem — see Findings.</numerusform>
            <numerusform>Verification failed: %n problems — see Findings.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Bundled, with %n warning(s) — see Findings.</source>
        <translation>
            <numerusform>Bundled, with %n warning — see Findings.</numerusform>
            <numerusform>Bundled, with %n warnings — see Findings.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n model(s) have error findings: the release cannot be bundled until they are fixed.</source>
        <translation>
            <numerusform>%n model has error findings: the release cannot be bundled until they are fixed.</numerusform>
            <numerusform>%n models have error findings: the release cannot be bundled until they are fixed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n label(s): %1</source>
        <translation>
            <numerusform>%n label: %1</numerusform>
            <numerusform>%n labels: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Verified: every file matches the manifest, with %n warning(s) — see Findings.</source>
        <translation>
            <numerusform>Verified: every file matches the manifest, with %n warning — see Findings.</numerusform>
            <numerusform>Verified: every file matches the manifest, with %n warnings — see Findings.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QueueTable</name>
    <message numerus="yes">
        <source>%1, %n warning(s)</source>
        <translation>
            <numerusform>%1, %n warning</numerusform>
            <numerusform>%1, %n warnings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReleaseWords</name>
    <message numerus="yes">
        <source>%n model(s)</source>
        <translation>
            <numerusform>%n model</numerusform>
            <numerusform>%n models</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n asset(s)</source>
        <translation>
            <numerusform>%n asset</numerusform>
            <numerusform>%n assets</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResultPanel</name>
    <message numerus="yes">
        <source>previous %1, %n change(s), needs a %2 bump (suggested %3).</source>
        <translation>
            <numerusform>previous %1, %n change, needs a %2 bump (suggested %3).</numerusform>
            <numerusform>previous %1, %n changes, needs a %2 bump (suggested %3).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: the bundled model is the original bit for bit (same structure, all %n tensor(s) compared byte for byte); its smoke run passed (onnxruntime %1, %2).</source>
        <translation>
            <numerusform>Proof: the bundled model is the original bit for bit (same structure, its %n tensor compared byte for byte); its smoke run passed (onnxruntime %1, %2).</numerusform>
            <numerusform>Proof: the bundled model is the original bit for bit (same structure, all %n tensors compared byte for byte); its smoke run passed (onnxruntime %1, %2).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Bundle created with %n warning(s): %1 (%2)</source>
        <translation>
            <numerusform>Bundle created with %n warning: %1 (%2)</numerusform>
            <numerusform>Bundle created with %n warnings: %1 (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; its smoke run gave %n warning(s) (onnxruntime %2): see below</source>
        <translation>
            <numerusform>%1; its smoke run gave %n warning (onnxruntime %2): see below</numerusform>
            <numerusform>%1; its smoke run gave %n warnings (onnxruntime %2): see below</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: %n model(s) of the release failed their proof or smoke run: see below.</source>
        <translation>
            <numerusform>Proof: %n model of the release failed their proof or smoke run: see below.</numerusform>
            <numerusform>Proof: %n models of the release failed their proof or smoke run: see below.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: each of the %n model(s) is the original; some gave warnings or were not run: see below.</source>
        <translation>
            <numerusform>Proof: each of the %n model is the original; some gave warnings or were not run: see below.</numerusform>
            <numerusform>Proof: each of the %n models is the original; some gave warnings or were not run: see below.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: each of the %n model(s) is the original and its smoke run passed; %1 shipped beside them.</source>
        <translation>
            <numerusform>Proof: each of the %n model is the original and its smoke run passed; %1 shipped beside them.</numerusform>
            <numerusform>Proof: each of the %n models is the original and its smoke run passed; %1 shipped beside them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n asset(s)</source>
        <translation>
            <numerusform>%n asset</numerusform>
            <numerusform>%n assets</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: the bundled model file is the original, byte for byte (equal SHA-256); but its smoke run gave %n warning(s) (onnxruntime %1, %2): see below.</source>
        <translation>
            <numerusform>Proof: the bundled model file is the original, byte for byte (equal SHA-256); but its smoke run gave %n warning (onnxruntime %1, %2): see below.</numerusform>
            <numerusform>Proof: the bundled model file is the original, byte for byte (equal SHA-256); but its smoke run gave %n warnings (onnxruntime %1, %2): see below.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Proof: the bundled model is the original bit for bit (same structure, all %n tensor(s) compared byte for byte); but its smoke run gave warnings (onnxruntime %1, %2): see below.</source>
        <translation>
            <numerusform>Proof: the bundled model is the original bit for bit (same structure, its %n tensor compared byte for byte); but its smoke run gave warnings (onnxruntime %1, %2): see below.</numerusform>
            <numerusform>Proof: the bundled model is the original bit for bit (same structure, all %n tensors compared byte for byte); but its smoke run gave warnings (onnxruntime %1, %2): see below.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message numerus="yes">
        <source>each of the %n model(s)</source>
        <translation>
            <numerusform>the %n model</numerusform>
            <numerusform>each of the %n models</numerusform>
        </translation>
    </message>
</context>
</TS>
