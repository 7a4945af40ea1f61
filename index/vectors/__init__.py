"""Child-chunk vectors: the embedders (local ONNX MiniLM, hash, OpenAI), the ONNX graph, the
Chroma store (the only module that imports chromadb) and the SQLite/Chroma doctor.
"""
